import type { Knex } from 'knex';

/**
 * A job's progress, written by the instance running it (at most a few times a second), so every
 * instance answers a progress poll alike (re-embedding, re-indexing after a language change).
 *
 * Dialect fork (PostgreSQL only; on SQLite one instance runs every job and hears of its own ends):
 * a job that ends (done or failed) is announced on `parley_table_changes` as
 * `jobs|<application_name of the writer>|<kind>|<key>`, so a caller waiting on another instance's
 * job (a file being indexed) is released at once instead of at the next poll.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    /** JSON the runner reports while running (its shape belongs to the kind); null before the first report. */
    t.text('progress').nullable();
  });
  if (knex.client.config.client !== 'pg') return;
  await knex.raw(`CREATE OR REPLACE FUNCTION parley_notify_job_end() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status IN ('done', 'failed') AND OLD.status IS DISTINCT FROM NEW.status THEN
        PERFORM pg_notify('parley_table_changes', 'jobs|' || current_setting('application_name') || '|' || NEW.kind || '|' || NEW.key);
      END IF;
      RETURN NULL;
    END $$`);
  // The condition sits in the function, not in a WHEN clause: a WHEN clause would pin the column's
  // type, and migrate() widens varchar columns to text after each batch (platform/db/knex.ts).
  await knex.raw('CREATE TRIGGER jobs_notify_end AFTER UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION parley_notify_job_end()');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    await knex.raw('DROP TRIGGER IF EXISTS jobs_notify_end ON jobs');
    await knex.raw('DROP FUNCTION IF EXISTS parley_notify_job_end()');
  }
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('progress');
  });
}
