ALTER TABLE "interactions" ADD COLUMN "typed_question" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "understood_by" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "thread_ref" text;--> statement-breakpoint
CREATE INDEX "interactions_thread" ON "interactions" USING btree ("channel","thread_ref","id");