CREATE TABLE "task_edges" (
	"job_id" text NOT NULL,
	"up_step" integer NOT NULL,
	"up_task" integer NOT NULL,
	"down_step" integer NOT NULL,
	"down_task" integer NOT NULL,
	"group_no" integer NOT NULL,
	"met" boolean DEFAULT false NOT NULL,
	CONSTRAINT "task_edges_job_id_up_step_up_task_down_step_down_task_group_no_pk" PRIMARY KEY("job_id","up_step","up_task","down_step","down_task","group_no")
);
--> statement-breakpoint
CREATE TABLE "task_groups" (
	"job_id" text NOT NULL,
	"group_no" integer NOT NULL,
	"down_step" integer NOT NULL,
	"down_task" integer NOT NULL,
	"met_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "task_groups_job_id_group_no_pk" PRIMARY KEY("job_id","group_no")
);
--> statement-breakpoint
ALTER TABLE "steps" ADD COLUMN "resolved_dependencies" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "waiting" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "task_edges" ADD CONSTRAINT "task_edges_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_edges_down" ON "task_edges" USING btree ("job_id","down_step","down_task","up_step","up_task");--> statement-breakpoint
CREATE INDEX "task_groups_down" ON "task_groups" USING btree ("job_id","down_step","down_task");--> statement-breakpoint
CREATE INDEX "tasks_releasable" ON "tasks" USING btree ("step_id","task_index") WHERE status = 'PENDING' AND waiting = 0;