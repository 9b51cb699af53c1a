ALTER TABLE "gaps" ADD COLUMN "reopened_because" text;--> statement-breakpoint
ALTER TABLE "gaps" ADD COLUMN "reopened_at" timestamp with time zone;