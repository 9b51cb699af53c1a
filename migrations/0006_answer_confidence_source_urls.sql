ALTER TABLE "documents" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "facts" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "interactions" ADD COLUMN "confidence" text;--> statement-breakpoint
ALTER TABLE "kb_gate_settings" ADD COLUMN "confident_above" double precision;