/*
 * The reference for bench/chain-model.bench.ts: the real loader's vkCreateInstance for one
 * application, timed in-process.
 *
 *   create-instance-timing REPS MAJOR.MINOR [LAYER...]
 *
 * One untimed create first (libraries mapped, page cache warm; the recording layers write the chain
 * to $STRATA_LAYER_LOG so the bench can check the model's answer), then STRATA_LAYER_LOG is unset
 * and REPS creates are timed with clock_gettime around vkCreateInstance alone (destroy excluded).
 * Prints one JSON line: {"result": VkResult, "createMs": [...]}. Its own path is what the override
 * layer's app_keys are compared with, so the bench runs one copy per application.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vulkan/vulkan.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: create-instance-timing REPS MAJOR.MINOR [LAYER...]\n");
    return 2;
  }
  int reps = atoi(argv[1]);
  unsigned major = 1, minor = 0;
  if (sscanf(argv[2], "%u.%u", &major, &minor) != 2) return 2;
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_MAKE_API_VERSION(0, major, minor, 0)};
  VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .pApplicationInfo = &app,
      .enabledLayerCount = (uint32_t)(argc - 3),
      .ppEnabledLayerNames = (const char *const *)(argv + 3),
  };
  VkInstance instance;
  VkResult first = vkCreateInstance(&info, NULL, &instance);
  if (first == VK_SUCCESS) vkDestroyInstance(instance, NULL);
  unsetenv("STRATA_LAYER_LOG");
  printf("{\"result\":%d,\"createMs\":[", (int)first);
  for (int i = 0; i < reps; i++) {
    double t0 = now_ms();
    VkResult r = vkCreateInstance(&info, NULL, &instance);
    double t1 = now_ms();
    if (r == VK_SUCCESS) vkDestroyInstance(instance, NULL);
    printf("%s%.3f", i ? "," : "", t1 - t0);
  }
  printf("]}\n");
  return 0;
}
