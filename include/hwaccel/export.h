/* Marks the public API. libhwaccel.so exports only that (hwaccel_* and
   hwaccel::api::*, by a linker version script), so its internals never
   collide with a program's own symbols. */
#ifndef HWACCEL_EXPORT_H
#define HWACCEL_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define HWACCEL_API __attribute__((visibility("default")))
#else
#define HWACCEL_API
#endif

#endif /* HWACCEL_EXPORT_H */
