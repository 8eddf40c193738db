# bench/devnull.sh, sourced by the bench scripts, whose commands write to
# /dev/null: stops the script when /dev/null is not a character device. A
# regular file there (left by a jrpcld before 2026-11-27 run as root with
# -o /dev/null) would make every run write and sync its whole output.
[ -c /dev/null ] || { echo "/dev/null is not a character device: restore it (as root: rm /dev/null && mknod -m 666 /dev/null c 1 3)" >&2; exit 1; }
