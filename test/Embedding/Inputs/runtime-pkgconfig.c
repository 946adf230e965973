/* Built by external-project.test with the flags of the installed
 * ptensor-runtime.pc. */
#include <ptensor/Runtime/PTensorRuntime.h>
#include <stdio.h>

int main(void) {
  printf("cuda available: %d\n", ptensor_rt_cuda_available());
  return 0;
}
