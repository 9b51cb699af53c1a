ALTER TABLE "documents" ADD COLUMN "linked_in_version" integer;--> statement-breakpoint
CREATE INDEX "facts_kb_added" ON "facts" USING btree ("kb_id","added_in_version");