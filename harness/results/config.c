// SPDX-License-Identifier: GPL-2.0-or-later
#include "harness/results/config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/base/input.h"
#include "harness/base/json.h"
#include "harness/base/macro.h"
#include "harness/base/path.h"

/* The members commands walk as objects (reproduce its "options", its "kernel" and "run"; a
 * report or findings the scenario's) or as arrays of strings (the "files" reproduce ships):
 * each of its type, or config.json is not one this blackout wrote. */
static const struct {
	const char *key;
	enum json_type type;
} members[] = {
	{"scenario", json_type_object}, {"device", json_type_object},
	{"workload", json_type_object}, {"check", json_type_object},
	{"run", json_type_object},	{"vm", json_type_object},
	{"options", json_type_object},	{"kernel", json_type_object},
	{"settings", json_type_object}, {"devices", json_type_array},
	{"files", json_type_array},
};

/* -EBADMSG with @err naming @path and the member of @o that is not of its type. */
static int members_check(struct json_object *o, const char *path, struct bo_err *err)
{
	struct json_object *v, *files;

	for (size_t i = 0; i < BO_ARRAY_SIZE(members); i++)
		if (json_object_object_get_ex(o, members[i].key, &v) &&
		    !json_object_is_type(v, members[i].type))
			return bo_err_set(
				err, EBADMSG, "'%s': \"%s\" is not %s", path, members[i].key,
				members[i].type == json_type_object ? "an object" : "an array");
	if (!json_object_object_get_ex(o, "files", &files))
		return 0;
	for (size_t i = 0; i < json_object_array_length(files); i++)
		if (!json_object_is_type(json_object_array_get_idx(files, i), json_type_string))
			return bo_err_set(err, EBADMSG, "'%s': \"files\"[%zu] is not a path", path,
					  i);
	return 0;
}

int bo_config_read(const char *dir, struct json_object **ret, struct bo_err *err)
{
	char path[PATH_MAX];
	struct json_object *o;
	int r;

	if (bo_pathf(path, sizeof(path), "%s/config.json", dir) < 0)
		return bo_err_set(err, ENAMETOOLONG, "'%s/config.json': path too long", dir);
	r = bo_json_read_in_max(dir, "config.json", BO_CONFIG_MAX, &o, err);
	if (r < 0)
		return r;
	if (bo_json_check_format(o, path, err) < 0) {
		json_object_put(o);
		return -EPROTO;
	}
	if (members_check(o, path, err) < 0) {
		json_object_put(o);
		return -EBADMSG;
	}
	*ret = o;
	return 0;
}

bool bo_config_run_seed(struct json_object *cfg, uint64_t *ret)
{
	struct json_object *run;

	return json_object_object_get_ex(cfg, "run", &run) && bo_json_u64(run, "seed", ret);
}

bool bo_config_is_check(struct json_object *cfg)
{
	const char *kind = bo_json_str(cfg, "kind");

	return kind && !strcmp(kind, "check");
}

bool bo_config_is_run(struct json_object *cfg)
{
	struct json_object *scenario;

	return json_object_object_get_ex(cfg, "scenario", &scenario) &&
	       json_object_is_type(scenario, json_type_object) && bo_json_str(cfg, "run_id");
}

void bo_config_add_origin(struct json_object *cfg)
{
	char host[256] = "", when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (gethostname(host, sizeof(host) - 1) == 0 && *host)
		json_object_object_add(cfg, "host", json_object_new_string(host));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	json_object_object_add(cfg, "started", json_object_new_string(when));
}
