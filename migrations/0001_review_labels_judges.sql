CREATE TABLE "agreement_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_key" text NOT NULL,
	"report" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "judge_specs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"version" integer NOT NULL,
	"task" text NOT NULL,
	"criteria" text NOT NULL,
	"outcomes" jsonb NOT NULL,
	"prompt_id" text NOT NULL,
	"prompt_version" text NOT NULL,
	"model" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "label_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sample_id" integer NOT NULL,
	"task" text NOT NULL,
	"annotator" text NOT NULL,
	"action" text NOT NULL,
	"value" text NOT NULL,
	"via" text NOT NULL,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_samples" (
	"id" serial PRIMARY KEY NOT NULL,
	"interaction_id" bigint NOT NULL,
	"stratum" text NOT NULL,
	"nearness" double precision,
	"posted_to" text,
	"post_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "label_events" ADD CONSTRAINT "label_events_sample_id_review_samples_id_fk" FOREIGN KEY ("sample_id") REFERENCES "public"."review_samples"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_samples" ADD CONSTRAINT "review_samples_interaction_id_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."interactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreement_reports_run_key" ON "agreement_reports" USING btree ("run_key");--> statement-breakpoint
CREATE UNIQUE INDEX "judge_specs_name_version" ON "judge_specs" USING btree ("name","version");--> statement-breakpoint
CREATE INDEX "label_events_current" ON "label_events" USING btree ("sample_id","task","annotator","id");--> statement-breakpoint
CREATE UNIQUE INDEX "label_events_event" ON "label_events" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_samples_interaction" ON "review_samples" USING btree ("interaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_samples_post" ON "review_samples" USING btree ("post_ref");