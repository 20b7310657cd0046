/* tomp-prof command-line program: the subcommands, each in its own file.
 * Each takes the arguments after the subcommand name (argv[0] is the subcommand) and returns
 * the process exit status. */
#ifndef TOMP_PROF_H
#define TOMP_PROF_H

int tp_cmd_record(int argc, char **argv); /* cli-record.c */
int tp_cmd_report(int argc, char **argv); /* report/report.c */
int tp_cmd_html(int argc, char **argv);   /* report/report.c: report --format html, to
                                             tomp-prof.html unless -o is given */
int tp_cmd_dump(int argc, char **argv);   /* cli-dump.c: print a data file's records */
int tp_cmd_diff(int argc, char **argv);   /* report/diff.c: compare two recordings */

/* Directory holding the running tomp-prof executable (for libtomp-prof.so and lib/libgomp.so.1
 * next to it); static storage. */
const char *tp_self_dir(void);

#endif
