CREATE TABLE "console_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"viewer" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "console_sign_in_links" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "console_sessions_expires" ON "console_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "console_sign_in_links_expires" ON "console_sign_in_links" USING btree ("expires_at");