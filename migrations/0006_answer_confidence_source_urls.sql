ALTER TABLE "documents" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "confidence" text;