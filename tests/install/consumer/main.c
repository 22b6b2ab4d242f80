/* Uses the installed C API: how many devices, is there an accelerator, which
   one does the default request get. Usage: c_consumer SNAPSHOT */
#include <hwaccel/hwaccel.h>
#include <stdio.h>

int main(int argc, char** argv) {
  hwaccel_detection* d = NULL;
  char* device = NULL;
  if (argc < 2) return 2;
  if (hwaccel_detect_snapshot(argv[1], &d) != HWACCEL_OK) {
    fprintf(stderr, "detect: %s\n", hwaccel_last_error());
    return 1;
  }
  if (hwaccel_select(d, "gpu", &device) != HWACCEL_OK) {
    fprintf(stderr, "select: %s\n", hwaccel_last_error());
    hwaccel_detection_free(d);
    return 1;
  }
  printf("%zu devices, accelerator %d, selected %s\n", hwaccel_device_count(d),
         hwaccel_has_accelerator(d), device);
  hwaccel_string_free(device);
  hwaccel_detection_free(d);
  return 0;
}
