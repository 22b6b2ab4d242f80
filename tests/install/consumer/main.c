/* Uses the installed C API: how many devices, is there an accelerator, which
   one does the default request get, and every device through the per-device
   accessors (no JSON parser). Usage: c_consumer SNAPSHOT */
#include <hwaccel/hwaccel.h>
#include <stdio.h>

int main(int argc, char** argv) {
  hwaccel_detection* d = NULL;
  char* device = NULL;
  size_t i;
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
  for (i = 0; i < hwaccel_device_count(d); ++i) {
    uint64_t total = 0;
    int known = hwaccel_device_memory_total(d, i, &total);
    printf("  %s %s %s %s%s%s, %llu MiB %s%s\n", hwaccel_device_id(d, i),
           hwaccel_device_status(d, i), hwaccel_device_vendor(d, i), hwaccel_device_name(d, i),
           *hwaccel_device_reason_code(d, i) ? " " : "", hwaccel_device_reason_code(d, i),
           (unsigned long long)(total >> 20), hwaccel_device_memory_kind(d, i),
           known ? "" : " (unknown)");
  }
  hwaccel_string_free(device);
  hwaccel_detection_free(d);
  return 0;
}
