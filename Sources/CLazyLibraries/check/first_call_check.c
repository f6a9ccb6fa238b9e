// Built and run by LazyLibrariesTests (not part of the target): the first call of liblcms2
// goes through the resolver with a double in xmm0, in 8 threads at once; each must get its own
// value through (a first-call path that lost xmm0 or raced on the slots fails here).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <lcms2.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
static pthread_barrier_t barrier;
static double (*estimate)(const cmsToneCurve *, double);
static void *worker(void *arg) {
    long i = (long)arg;
    pthread_barrier_wait(&barrier);
    double g = 1.0 + 0.25 * i;
    cmsToneCurve *curve = cmsBuildGamma(NULL, g);  // the first call of liblcms2 in the process, in 8 threads at once
    double e = estimate(curve, 0.01);
    if (fabs(e - g) > 0.01) { printf("thread %ld: gamma %f came back as %f\n", i, g, e); return (void *)1; }
    cmsFreeToneCurve(curve);
    return NULL;
}
int main(void) {
    if (dlopen("liblcms2.so.2", RTLD_NOW | RTLD_NOLOAD)) { puts("loaded at start-up"); return 1; }
    pthread_t t[8];
    pthread_barrier_init(&barrier, NULL, 8);
    // cmsEstimateGamma is not in the list: take it straight from the library once it is loaded.
    void *h = dlopen("liblcms2.so.2", RTLD_NOW);  // loads it, but the trampolines' slots still lead to the resolver
    estimate = (double (*)(const cmsToneCurve *, double))dlsym(h, "cmsEstimateGamma");
    for (long i = 0; i < 8; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    long bad = 0;
    for (int i = 0; i < 8; i++) { void *r; pthread_join(t[i], &r); bad += (long)r; }
    printf("%s\n", bad ? "FAIL" : "ok: doubles in xmm0 survive the first call, 8 threads at once");
    return bad != 0;
}
