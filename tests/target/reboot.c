#include "testlib.h"
void reboot_test_main(void) { sbi_shutdown(); }
