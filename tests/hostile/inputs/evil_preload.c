/* Items 3 and 4: a library that, once loaded into any process, leaves a file in the
   canary folder (CANARY is given at compile time). It only creates that file. */
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void hostile_loaded(void) {
  int fd = open(CANARY "/library-loaded", O_CREAT | O_WRONLY, 0644);
  if (fd >= 0) close(fd);
}
