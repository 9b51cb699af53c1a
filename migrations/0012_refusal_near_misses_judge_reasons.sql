ALTER TABLE "interactions" ADD COLUMN "considered" jsonb;--> statement-breakpoint
ALTER TABLE "label_events" ADD COLUMN "explanation" text;