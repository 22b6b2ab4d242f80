/* A consumer of release 0.1.0: compiled against the frozen 0.1.0 header
   (tests/abi/hwaccel-0.1.0.h), never the current one, and linked to the current
   libhwaccel.so. It calls every function 0.1.0 had and checks what it promised,
   so a change that breaks a program built then fails here.
   Usage: old_consumer SNAPSHOT */
#include <stdio.h>
#include <string.h>

#include "hwaccel-0.1.0.h"

int main(int argc, char** argv) {
  hwaccel_detection* d = NULL;
  char* text = NULL;
  int failures = 0;
#define CHECK(c) \
  if (!(c)) fprintf(stderr, "old_consumer: CHECK(%s) failed\n", #c), ++failures
  if (argc < 2) return 2;
  CHECK(hwaccel_version()[0] != '\0');
  CHECK(strcmp(hwaccel_status_name(HWACCEL_ERROR_UNSATISFIED), "unsatisfied") == 0);
  CHECK(hwaccel_detect_snapshot(argv[1], &d) == HWACCEL_OK);
  CHECK(strcmp(hwaccel_last_error(), "") == 0);
  CHECK(hwaccel_device_count(d) == 9);
  CHECK(hwaccel_has_accelerator(d) == 1);
  CHECK(hwaccel_accelerator_memory_bytes(d) == 8ull * 81559ull << 20);
  CHECK(hwaccel_select(d, "gpu mem>=40G", &text) == HWACCEL_OK && strcmp(text, "cuda:0") == 0);
  hwaccel_string_free(text);
  CHECK(hwaccel_select(d, "gpu mem>=200G", &text) == HWACCEL_ERROR_UNSATISFIED);
  CHECK(hwaccel_json(d, &text) == HWACCEL_OK && strstr(text, "hwaccel-detect/1") != NULL);
  hwaccel_string_free(text);
  hwaccel_detection_free(d);
  CHECK(hwaccel_detect(NULL) == HWACCEL_ERROR_INVALID_ARGUMENT);
  d = NULL;
  CHECK(hwaccel_detect(&d) == HWACCEL_OK && hwaccel_device_count(d) >= 1);
  hwaccel_detection_free(d);
  if (!failures) printf("old_consumer: a 0.1.0 program runs on libhwaccel %s\n", hwaccel_version());
  return failures ? 1 : 0;
}
