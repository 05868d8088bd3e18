/* c-blosc includes <pthread.h>, which wasi-libc lacks. Decoding runs with one thread
   (blosc_decompress_ctx(..., 1) never starts one), so these stand-ins are never
   asked to do more than nothing: starting a thread fails. */
#pragma once
#include <errno.h>
#include <sys/types.h>
typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0
static inline int pthread_once(pthread_once_t *o, void (*f)(void)) { if (!*o) { *o = 1; f(); } return 0; }
#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_BARRIER_SERIAL_THREAD -1
static inline int pthread_atfork(void (*p)(void), void (*a)(void), void (*c)(void)) { (void)p; (void)a; (void)c; return 0; }
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) { (void)t; (void)a; (void)f; (void)arg; return ENOSYS; }
static inline int pthread_join(pthread_t t, void **r) { (void)t; (void)r; return ENOSYS; }
static inline int pthread_attr_init(pthread_attr_t *a) { (void)a; return 0; }
static inline int pthread_attr_destroy(pthread_attr_t *a) { (void)a; return 0; }
static inline int pthread_attr_setdetachstate(pthread_attr_t *a, int s) { (void)a; (void)s; return 0; }
static inline int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m; (void)a; return 0; }
static inline int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
static inline int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { (void)c; (void)a; return 0; }
static inline int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { (void)c; (void)m; return 0; }
static inline int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
static inline int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned n) { (void)b; (void)a; (void)n; return 0; }
static inline int pthread_barrier_destroy(pthread_barrier_t *b) { (void)b; return 0; }
static inline int pthread_barrier_wait(pthread_barrier_t *b) { (void)b; return 0; }
