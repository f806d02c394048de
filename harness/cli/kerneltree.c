// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kerneltree.c — the kernel list and the tree of check --kernels and run --kernels
 * (kerneltree.h).
 */
#include "harness/cli/kerneltree.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/base/macro.h"
#include "harness/base/path.h"
#include "harness/base/safety.h"
#include "harness/cli/cli.h"
#include "vm/kernel.h"

int bo_kerneltree_resolve(const char *cmd, const char *list, char (*rel)[NAME_MAX + 1],
			  size_t *ret_n, int *ret_status)
{
	_cleanup_free_ char *copy = strdup(list);
	struct bo_err err = {0};
	char **specs = NULL;
	size_t n = 0;

	*ret_status = BO_EXIT_HARNESS;
	/* "A,B" (or "A B"): the words of the list. */
	for (char *p = copy; p && *p; p++)
		if (*p == ',')
			*p = ' ';
	specs = copy ? bo_strv_split(copy) : NULL;
	if (!specs)
		return -1;
	/* How many, an option's error, before any is looked for. */
	while (specs[n])
		n++;
	if (n < 2 || n > BO_KERNELS_MAX) {
		*ret_status =
			n < 2 ? bo_cli_usage_error(cmd, "--kernels needs two kernels or more")
			      : bo_cli_usage_error(cmd, "--kernels: at most %d", BO_KERNELS_MAX);
		bo_strv_free(specs);
		return -1;
	}
	/* Every kernel is resolved before any VM boots. */
	for (n = 0; specs[n]; n++) {
		if (bo_kernel_cached(specs[n], rel[n], sizeof(rel[n]), &err) < 0) {
			bo_cli_error("%s --kernels: %s", cmd, bo_err_str(&err));
			bo_strv_free(specs);
			return -1;
		}
		for (size_t j = 0; j < n; j++)
			if (!strcmp(rel[j], rel[n])) {
				*ret_status = bo_cli_usage_error(cmd, "--kernels: '%s' is %s again",
								 specs[n], rel[n]);
				bo_strv_free(specs);
				return -1;
			}
	}
	bo_strv_free(specs);
	*ret_n = n;
	return 0;
}

int bo_kerneltree_create(const char *cmd, const char *parent, uint64_t seed, char *tree)
{
	char runid[BO_RUNID_MAX], path[PATH_MAX];

	bo_runid_make(seed, runid, sizeof(runid));
	if ((mkdir(parent, 0755) < 0 && errno != EEXIST) || !realpath(parent, path) ||
	    bo_pathf(tree, PATH_MAX, "%s/%s", path, runid) < 0 || mkdir(tree, 0755) < 0) {
		bo_cli_error("%s --kernels: creating the tree under '%s': %m", cmd, parent);
		return -1;
	}
	return 0;
}

int bo_kerneltree_only_dir(const char *parent, char *dir)
{
	_cleanup_(bo_closedirp) DIR *d = opendir(parent);
	struct dirent *de;
	int found = 0;

	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type == DT_DIR &&
		    bo_pathf(dir, PATH_MAX, "%s/%s", parent, de->d_name) == 0)
			found++;
	return found == 1 ? 0 : -ENOENT;
}

int bo_kerneltree_exit(const int *status, size_t n, bool differ)
{
	int ret = BO_EXIT_OK;

	for (size_t i = 0; i < n; i++)
		if (status[i] != BO_EXIT_OK && status[i] != BO_EXIT_FAILURE)
			ret = BO_EXIT_HARNESS;
		else if (status[i] == BO_EXIT_FAILURE && ret == BO_EXIT_OK)
			ret = BO_EXIT_FAILURE;
	if (differ && ret == BO_EXIT_OK)
		ret = BO_EXIT_FAILURE;
	return ret;
}

struct json_object *bo_kerneltree_kernels_json(const char *tree, const char (*rel)[NAME_MAX + 1],
					       const char (*dirs)[PATH_MAX], const int *status,
					       size_t n)
{
	struct json_object *ks = json_object_new_array();
	size_t skip = strlen(tree) + 1;

	for (size_t i = 0; ks && i < n; i++) {
		struct json_object *k = json_object_new_object();

		json_object_object_add(k, "release", json_object_new_string(rel[i]));
		json_object_object_add(k, "results", json_object_new_string(dirs[i] + skip));
		json_object_object_add(k, "exit_status", json_object_new_int(status[i]));
		json_object_array_add(ks, k);
	}
	return ks;
}
