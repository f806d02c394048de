// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * blackout-sqlite — SQLite (the system's libsqlite3) as the application under test, in WAL
 * mode with synchronous=FULL or rollback-journal (DELETE) mode with synchronous=EXTRA: each op
 * inserts one row in its own transaction and is acknowledged once COMMIT returned, which
 * SQLite then promises is durable.
 *
 * Why EXTRA in DELETE mode: a DELETE-mode transaction commits by unlinking its journal, and
 * FULL does not sync the directory after that unlink. After a power cut the journal can come
 * back, SQLite takes it for a hot journal and rolls the last committed transaction back —
 * blackout finds exactly that (twin synchronous-full). EXTRA adds the directory sync
 * (https://www.sqlite.org/pragma.html#pragma_synchronous).
 *
 * The checker opens the crash state's database — SQLite's own recovery replays the WAL or
 * rolls back a hot journal — runs PRAGMA integrity_check, and prints "present <id>" for each
 * row whose content is right. A failed integrity check is the application's recovery failing:
 * the checker still ends with "done" and exits 1 (app-recovery-failed).
 *
 * Planted bugs: synchronous-off (COMMIT returns before anything is synced, either mode) and
 * synchronous-full (DELETE mode only: the journal's unlink is not synced, see above).
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/blackout-ctl.h"
#include "scenarios/common/family.h"

#define DB_NAME	  "test.db"
#define VALUE_LEN 600u

enum { BUG_SYNCHRONOUS_OFF, BUG_SYNCHRONOUS_FULL };

static const char *const bugs[] = {"synchronous-off", "synchronous-full", NULL};

static const char usage[] =
	"usage: blackout-sqlite [run|check] --journal=wal|delete [--seed N] [--ops N]\n"
	"                       [--bug=synchronous-off|synchronous-full]\n\n"
	"run    insert --ops rows into " DB_NAME " in the current directory, one transaction\n"
	"       each, acknowledging each after COMMIT\n"
	"check  open the database (SQLite recovers it), PRAGMA integrity_check, print\n"
	"       'present <id>' for every intact row, 'done'; exit 1 if the check failed";

static const char *journal;

static int journal_opt(int opt, const char *arg)
{
	if (opt != 'j' || (strcmp(arg, "wal") && strcmp(arg, "delete")))
		return -1;
	journal = arg;
	return 0;
}

static int exec(const struct family_args *a, sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	family_die(1, a->prog, "'%s': %s", sql, msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

static int run(const struct family_args *a)
{
	static unsigned char value[VALUE_LEN];
	const char *sync = strcmp(journal, "delete") ? "FULL" : "EXTRA";
	char sql[128], pragma[64];
	sqlite3_stmt *ins = NULL;
	sqlite3 *db = NULL;
	int status = 1;

	if (sqlite3_open(DB_NAME, &db) != SQLITE_OK)
		return family_die(1, a->prog, "opening '%s': %s", DB_NAME, sqlite3_errmsg(db));
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s", journal);
	snprintf(pragma, sizeof(pragma), "PRAGMA synchronous=%s", sync);
	/* The table is created durably in every variant: the bug is in the ops. */
	if (exec(a, db, sql) < 0 || exec(a, db, pragma) < 0 ||
	    exec(a, db, "CREATE TABLE rows(id INTEGER PRIMARY KEY, value BLOB NOT NULL)") < 0)
		goto out;
	if (family_fsync_dir(".") < 0) {
		family_die(1, a->prog, "fsync of the directory: %s", strerror(errno));
		goto out;
	}
	if (a->bug == BUG_SYNCHRONOUS_OFF && exec(a, db, "PRAGMA synchronous=OFF") < 0)
		goto out;
	if (a->bug == BUG_SYNCHRONOUS_FULL && exec(a, db, "PRAGMA synchronous=FULL") < 0)
		goto out;
	if (sqlite3_prepare_v2(db, "INSERT INTO rows(id, value) VALUES (?, ?)", -1, &ins, NULL) !=
	    SQLITE_OK) {
		family_die(1, a->prog, "prepare: %s", sqlite3_errmsg(db));
		goto out;
	}
	for (uint64_t id = 1; id <= a->ops; id++) {
		family_fill(a->seed, id, value, VALUE_LEN);
		if (bo_ctl_issue(id) < 0) {
			family_die(1, a->prog, "%s", bo_ctl_error());
			goto out;
		}
		sqlite3_bind_int64(ins, 1, (sqlite3_int64) id);
		sqlite3_bind_blob(ins, 2, value, VALUE_LEN, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			family_die(1, a->prog, "insert %llu: %s", (unsigned long long) id,
				   sqlite3_errmsg(db));
			goto out;
		}
		sqlite3_reset(ins);
		if (bo_ctl_ack(id) < 0) {
			family_die(1, a->prog, "%s", bo_ctl_error());
			goto out;
		}
	}
	status = 0;
out:
	sqlite3_finalize(ins);
	if (sqlite3_close(db) != SQLITE_OK && status == 0)
		status = family_die(1, a->prog, "close: %s", sqlite3_errmsg(db));
	return status;
}

/* Print the intact rows; returns 0, or 1 when the database failed its own checks. */
static int list_rows(const struct family_args *a, sqlite3 *db)
{
	static unsigned char want[VALUE_LEN];
	sqlite3_stmt *st = NULL;
	int r, status = 0;

	r = sqlite3_prepare_v2(db, "SELECT id, value FROM rows ORDER BY id", -1, &st, NULL);
	if (r != SQLITE_OK) {
		/* Before the table was created there is nothing to find; that is no failure. */
		if (strstr(sqlite3_errmsg(db), "no such table"))
			return 0;
		printf("# select: %s\n", sqlite3_errmsg(db));
		return 1;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 id = sqlite3_column_int64(st, 0);
		const void *v = sqlite3_column_blob(st, 1);

		family_fill(a->seed, (uint64_t) id, want, VALUE_LEN);
		if (id > 0 && v && sqlite3_column_bytes(st, 1) == VALUE_LEN &&
		    !memcmp(v, want, VALUE_LEN))
			printf("present %lld\n", (long long) id);
		else
			printf("# row %lld has the wrong content\n", (long long) id);
	}
	if (r != SQLITE_DONE) {
		printf("# select: %s\n", sqlite3_errmsg(db));
		status = 1;
	}
	sqlite3_finalize(st);
	return status;
}

static int check(const struct family_args *a)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	int status = 0;

	if (sqlite3_open_v2(DB_NAME, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		/* No database yet: the crash came before the workload created it. */
		sqlite3_close(db);
		puts("done");
		return fflush(stdout) == 0 ? 0 : 3;
	}
	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
		printf("# integrity_check: %s\n", sqlite3_errmsg(db));
		status = 1;
	} else {
		int r;

		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			const char *res = (const char *) sqlite3_column_text(st, 0);

			if (!res || strcmp(res, "ok")) {
				printf("# integrity_check: %s\n", res ? res : "(null)");
				status = 1;
			}
		}
		if (r != SQLITE_DONE) {
			printf("# integrity_check: %s\n", sqlite3_errmsg(db));
			status = 1;
		}
	}
	sqlite3_finalize(st);
	if (list_rows(a, db))
		status = 1;
	sqlite3_close(db);
	puts("done");
	if (fflush(stdout) != 0)
		return 3;
	return status;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"journal", required_argument, NULL, 'j'},
		{},
	};
	struct family_args a;
	int r = family_parse(argc, argv, usage, bugs, opts, journal_opt, &a);

	if (r)
		return r;
	if (!journal)
		return family_die(2, a.prog, "--journal=wal|delete is required");
	if (a.bug == BUG_SYNCHRONOUS_FULL && strcmp(journal, "delete"))
		return family_die(2, a.prog, "--bug=synchronous-full needs --journal=delete");
	return a.check ? check(&a) : run(&a);
}
