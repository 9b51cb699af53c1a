CREATE TABLE "source_documents" (
	"source_id" integer NOT NULL,
	"key" text NOT NULL,
	"url" text,
	"etag" text,
	"last_modified" text,
	"version_token" text,
	"content_hash" text,
	"state" text NOT NULL,
	"last_error" text,
	"facts" bigint DEFAULT 0 NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone,
	CONSTRAINT "source_documents_source_id_key_pk" PRIMARY KEY("source_id","key")
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb" text NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"every_seconds" integer NOT NULL,
	"include" text,
	"max_pages" integer NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_outcome" text,
	"last_error" text,
	"last_counts" jsonb,
	"last_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "source_documents" ADD CONSTRAINT "source_documents_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sources_kb_source" ON "sources" USING btree ("kb","source");--> statement-breakpoint
CREATE INDEX "sources_next_run" ON "sources" USING btree ("next_run_at");