#include "testlib.h"
static const struct target_test tests[] = { };
GROUP(ipi, tests);
