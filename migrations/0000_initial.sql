CREATE TABLE "documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"path" text NOT NULL,
	"title" text,
	"content_hash" text NOT NULL,
	"added_in_version" integer NOT NULL,
	"retired_in_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facts" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"external_id" text,
	"text" text NOT NULL,
	"heading" text,
	"position" integer NOT NULL,
	"source" text NOT NULL,
	"confidence" real DEFAULT 1 NOT NULL,
	"added_in_version" integer NOT NULL,
	"retired_in_version" integer,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(heading, '') || ' ' || text)) STORED
);
--> statement-breakpoint
CREATE TABLE "interactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"event_id" text,
	"conversation_ref" text,
	"user_hash" text,
	"kb_id" integer,
	"kb_version" integer,
	"question" text NOT NULL,
	"status" text DEFAULT 'done' NOT NULL,
	"decision" text,
	"reason" text,
	"answer" text,
	"verdicts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"top_score" double precision,
	"model" text,
	"prompt_version" text,
	"trace_id" text,
	"latency_ms" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"version" integer NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_bases" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"current_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_bases_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facts" ADD CONSTRAINT "facts_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facts" ADD CONSTRAINT "facts_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interactions" ADD CONSTRAINT "interactions_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_versions" ADD CONSTRAINT "kb_versions_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_kb_path" ON "documents" USING btree ("kb_id","path");--> statement-breakpoint
CREATE INDEX "facts_kb_active" ON "facts" USING btree ("kb_id","retired_in_version");--> statement-breakpoint
CREATE INDEX "facts_external_id" ON "facts" USING btree ("kb_id","external_id");--> statement-breakpoint
CREATE INDEX "facts_search" ON "facts" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "interactions_channel_event" ON "interactions" USING btree ("channel","event_id");--> statement-breakpoint
CREATE INDEX "interactions_created" ON "interactions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "interactions_decision" ON "interactions" USING btree ("decision","reason");--> statement-breakpoint
CREATE UNIQUE INDEX "kb_versions_kb_version" ON "kb_versions" USING btree ("kb_id","version");