CREATE TABLE "kb_gate_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"version" integer NOT NULL,
	"min_answerability" double precision NOT NULL,
	"method" text NOT NULL,
	"model" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "passage" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "answerability" jsonb;--> statement-breakpoint
ALTER TABLE "kb_gate_settings" ADD CONSTRAINT "kb_gate_settings_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kb_gate_settings_kb_version" ON "kb_gate_settings" USING btree ("kb_id","version");--> statement-breakpoint
-- Backfill: a document fact's passage is its document and section; a ready-made (.jsonl) fact is its own passage.
UPDATE "facts" SET "passage" = CASE
  WHEN "facts"."external_id" IS NOT NULL THEN "documents"."path" || '#' || "facts"."external_id"
  WHEN "facts"."heading" IS NOT NULL THEN "documents"."path" || ' › ' || "facts"."heading"
  ELSE "documents"."path"
END
FROM "documents" WHERE "documents"."id" = "facts"."document_id" AND "facts"."passage" IS NULL;
