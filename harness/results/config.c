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
#include "harness/base/path.h"

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
