CREATE TABLE "kb_grounding_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"kb_id" integer NOT NULL,
	"version" integer NOT NULL,
	"threshold" double precision NOT NULL,
	"method" text NOT NULL,
	"checker" text NOT NULL,
	"note" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "kb_grounding_settings" ADD CONSTRAINT "kb_grounding_settings_kb_id_knowledge_bases_id_fk" FOREIGN KEY ("kb_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kb_grounding_settings_kb_version" ON "kb_grounding_settings" USING btree ("kb_id","version");--> statement-breakpoint
-- A new grounding setting is announced to replicas as a gate setting is (LISTEN candor_kb_change, migration 0010).
CREATE TRIGGER "kb_grounding_settings_notify" AFTER INSERT ON "kb_grounding_settings"
  FOR EACH ROW EXECUTE FUNCTION "candor_kb_change_notify"();
