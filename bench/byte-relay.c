/*
 * The floor below the floor: a process in the middle that does nothing at all. It copies the
 * bytes of its stdin to a child's stdin and the child's stdout to its stdout, with no parsing, no
 * ids and no buffers beyond one read. The bench compiles it (cc -O2) when a C compiler is there,
 * to show what a third process costs on this machine when that process is not Node.
 *
 *   byte-relay CMD ARGS...
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const char *buf, ssize_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, (size_t)len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buf += n;
    len -= n;
  }
  return 0;
}

int main(int argc, char **argv) {
  int to_child[2], from_child[2];
  if (argc < 2 || pipe(to_child) != 0 || pipe(from_child) != 0) return 2;
  pid_t pid = fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    close(to_child[1]);
    close(from_child[0]);
    execvp(argv[1], argv + 1);
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  static char buf[1 << 16];
  struct pollfd fds[2] = {{0, POLLIN, 0}, {from_child[0], POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents) {
      ssize_t n = read(0, buf, sizeof buf);
      if (n <= 0) {
        close(to_child[1]); /* the client is gone: the child sees EOF and exits */
        fds[0].fd = -1;
      } else if (write_all(to_child[1], buf, n) != 0) {
        break;
      }
    }
    if (fds[1].revents) {
      ssize_t n = read(from_child[0], buf, sizeof buf);
      if (n <= 0 || write_all(1, buf, n) != 0) break;
    }
  }
  kill(pid, SIGTERM);
  waitpid(pid, NULL, 0);
  return 0;
}
