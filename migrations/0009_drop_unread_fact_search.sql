DROP INDEX "facts_search";--> statement-breakpoint
ALTER TABLE "facts" DROP COLUMN "search";