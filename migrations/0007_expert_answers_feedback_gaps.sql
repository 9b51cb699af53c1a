CREATE TABLE "asker_feedback" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"interaction_id" bigint NOT NULL,
	"asker" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"comment" text,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gap_members" (
	"interaction_id" bigint PRIMARY KEY NOT NULL,
	"gap_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gap_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"gap_id" integer NOT NULL,
	"interaction_id" bigint NOT NULL,
	"asker" text NOT NULL,
	"target" jsonb,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gaps" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"question" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"fact_id" integer,
	"asked_at" timestamp with time zone,
	"closed_by" text,
	"closed_at" timestamp with time zone,
	"posts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"post_claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "alias" text;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "author" text;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "asker_feedback" ADD CONSTRAINT "asker_feedback_interaction_id_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."interactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gap_members" ADD CONSTRAINT "gap_members_interaction_id_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."interactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gap_members" ADD CONSTRAINT "gap_members_gap_id_gaps_id_fk" FOREIGN KEY ("gap_id") REFERENCES "public"."gaps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gap_requests" ADD CONSTRAINT "gap_requests_gap_id_gaps_id_fk" FOREIGN KEY ("gap_id") REFERENCES "public"."gaps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gap_requests" ADD CONSTRAINT "gap_requests_interaction_id_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."interactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gaps" ADD CONSTRAINT "gaps_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gaps" ADD CONSTRAINT "gaps_fact_id_facts_id_fk" FOREIGN KEY ("fact_id") REFERENCES "public"."facts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asker_feedback_current" ON "asker_feedback" USING btree ("interaction_id","asker","id");--> statement-breakpoint
CREATE UNIQUE INDEX "asker_feedback_event" ON "asker_feedback" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "gap_members_gap" ON "gap_members" USING btree ("gap_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gap_requests_interaction" ON "gap_requests" USING btree ("interaction_id");--> statement-breakpoint
CREATE INDEX "gap_requests_gap" ON "gap_requests" USING btree ("gap_id");--> statement-breakpoint
CREATE INDEX "gaps_kb_state" ON "gaps" USING btree ("kb_id","state");