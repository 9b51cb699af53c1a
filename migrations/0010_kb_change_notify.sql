-- Replicas keep each KB's version in memory and are told when it moves on (LISTEN candor_kb_change), instead of
-- asking the store on every question: a new version (ingest, expert answer) or a new calibrated gate setting.
CREATE FUNCTION "candor_kb_change_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'knowledge_bases' THEN
    PERFORM pg_notify('candor_kb_change', NEW."name");
  ELSE
    PERFORM pg_notify('candor_kb_change', (SELECT "name" FROM "knowledge_bases" WHERE "id" = NEW."kb_id"));
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "knowledge_bases_version_notify" AFTER UPDATE OF "current_version" ON "knowledge_bases"
  FOR EACH ROW WHEN (OLD."current_version" IS DISTINCT FROM NEW."current_version") EXECUTE FUNCTION "candor_kb_change_notify"();--> statement-breakpoint
CREATE TRIGGER "kb_gate_settings_notify" AFTER INSERT ON "kb_gate_settings"
  FOR EACH ROW EXECUTE FUNCTION "candor_kb_change_notify"();
--> statement-breakpoint
-- An index build reads a KB's facts page by page in id order (keyset): this index serves those pages directly.
CREATE INDEX "facts_kb_id_id" ON "facts" USING btree ("kb_id","id");
