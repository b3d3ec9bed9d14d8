/* main.c: stpd-bridge's entry point: parse the command line, open the
 * output, the log and the --record file, then list the JVMs, read a
 * recording, or supervise workers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "discovery.h"
#include "log.h"
#include "options.h"
#include "readrec.h"
#include "recorder.h"
#include "supervisor.h"

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

int main(int argc, char **argv)
{
	struct bridge_options o;
	int rc, out_fd = STDOUT_FILENO, log_fd = -1, record_fd = -1;

	sj_log_open("stpd-bridge", -1, SJ_LOG_WARN);
	rc = options_parse(argc, argv, &o);
	if (rc != 0) {
		options_free(&o);
		return rc > 0 ? 0 : 2;
	}
	if (o.log_file) {
		log_fd = open_append(o.log_file);
		if (log_fd < 0) {
			sj_error("--log-file '%s': %s", o.log_file, strerror(errno));
			options_free(&o);
			return 1;
		}
	}
	sj_log_open("stpd-bridge", log_fd, o.log_level);
	if (o.list) {
		struct discovery *d = discovery_new();

		rc = d ? discovery_list(d, stdout, o.sockdir) : -ENOMEM;
		discovery_free(d);
		if (rc < 0)
			sj_error("--list: %s", strerror(-rc));
		options_free(&o);
		return rc < 0 ? 1 : 0;
	}
	if (o.check) {
		rc = supervisor_check_named(&o);
		options_free(&o);
		return rc < 0 ? 1 : 0;
	}
	if (o.output) {
		out_fd = open_append(o.output);
		if (out_fd < 0) {
			sj_error("--output '%s': %s", o.output, strerror(errno));
			options_free(&o);
			return 1;
		}
	}
	if (o.read) {
		rc = read_recording(o.read, o.record_fmt, out_fd);
		options_free(&o);
		return rc < 0 ? 1 : 0;
	}
	/* now, with the bridge's privileges: the recorder will not have them */
	if (o.record && recorder_open_file(&o, &record_fd) < 0) {
		options_free(&o);
		return 1;
	}
	rc = supervisor_run(&o, out_fd, log_fd, record_fd);
	options_free(&o);
	return rc;
}
