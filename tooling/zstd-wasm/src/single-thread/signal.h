/*
 * wasi-libc has no signals. liblzma's mythread.h, built without threads,
 * defines an inline helper over sigprocmask that only the xz command calls,
 * never the library: these stand-ins let the header compile, and nothing in
 * the modules calls them.
 */
#ifndef ZARRKIT_SINGLE_THREAD_SIGNAL_H
#define ZARRKIT_SINGLE_THREAD_SIGNAL_H

typedef unsigned long sigset_t;

static inline int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  (void)how;
  (void)set;
  (void)old;
  return 0;
}

#endif
