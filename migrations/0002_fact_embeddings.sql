CREATE TABLE "fact_embeddings" (
	"fact_id" integer NOT NULL,
	"model" text NOT NULL,
	"vector" real[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fact_embeddings_fact_id_model_pk" PRIMARY KEY("fact_id","model")
);
--> statement-breakpoint
ALTER TABLE "fact_embeddings" ADD CONSTRAINT "fact_embeddings_fact_id_facts_id_fk" FOREIGN KEY ("fact_id") REFERENCES "public"."facts"("id") ON DELETE no action ON UPDATE no action;