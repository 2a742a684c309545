/*
 * The reference for bench/bridge-enumerate.bench.ts: what Strata's `devices` probe request does
 * (native-bridge/vulkan-queries.ts, queryDevices), in C against the real loader, N times:
 * instance version and extensions, create an instance (1.1, portability enumeration when
 * offered), enumerate physical devices, properties, driver properties (Properties2), memory
 * properties, queue families, device extensions, destroy. Prints one JSON line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    VkResult r_ = (call);                                                        \
    if (r_ != VK_SUCCESS && r_ != VK_INCOMPLETE) {                               \
      fprintf(stderr, "%s returned %d\n", #call, r_);                            \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Returns the number of devices seen; `checksum` keeps the compiler from dropping the queries. */
static unsigned once(unsigned long *checksum) {
  uint32_t version = 0;
  CHECK(vkEnumerateInstanceVersion(&version));
  uint32_t count = 0;
  CHECK(vkEnumerateInstanceExtensionProperties(NULL, &count, NULL));
  VkExtensionProperties *exts = calloc(count ? count : 1, sizeof *exts);
  CHECK(vkEnumerateInstanceExtensionProperties(NULL, &count, exts));
  int portability = 0;
  for (uint32_t i = 0; i < count; i++)
    if (strcmp(exts[i].extensionName, "VK_KHR_portability_enumeration") == 0) portability = 1;
  free(exts);

  const char *enabled[] = {"VK_KHR_portability_enumeration"};
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "Strata bench", .pEngineName = "Strata", .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
      .flags = portability ? VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR : 0,
      .pApplicationInfo = &app,
      .enabledExtensionCount = portability ? 1 : 0,
      .ppEnabledExtensionNames = enabled,
  };
  VkInstance instance;
  CHECK(vkCreateInstance(&info, NULL, &instance));

  uint32_t n = 0;
  CHECK(vkEnumeratePhysicalDevices(instance, &n, NULL));
  VkPhysicalDevice *devices = calloc(n ? n : 1, sizeof *devices);
  CHECK(vkEnumeratePhysicalDevices(instance, &n, devices));
  for (uint32_t d = 0; d < n; d++) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(devices[d], &props);
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(devices[d], &props2);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(devices[d], &memory);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(devices[d], &families, NULL);
    VkQueueFamilyProperties *queues = calloc(families ? families : 1, sizeof *queues);
    vkGetPhysicalDeviceQueueFamilyProperties(devices[d], &families, queues);
    uint32_t extCount = 0;
    CHECK(vkEnumerateDeviceExtensionProperties(devices[d], NULL, &extCount, NULL));
    VkExtensionProperties *dexts = calloc(extCount ? extCount : 1, sizeof *dexts);
    CHECK(vkEnumerateDeviceExtensionProperties(devices[d], NULL, &extCount, dexts));
    *checksum += props.deviceID + strlen(props.deviceName) + strlen(driver.driverName) + memory.memoryHeapCount + families + queues[0].queueCount + extCount;
    free(queues);
    free(dexts);
  }
  free(devices);
  vkDestroyInstance(instance, NULL);
  return n;
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? atoi(argv[1]) : 50;
  unsigned long checksum = 0;
  double t0 = now_ms();
  unsigned first = once(&checksum); /* the first pass loads the driver: reported apart, as Strata's cold start is */
  double t1 = now_ms();
  for (int i = 0; i < iterations; i++) {
    if (once(&checksum) != first) {
      fprintf(stderr, "device count changed between iterations\n");
      return 1;
    }
  }
  double t2 = now_ms();
  printf("{\"devices\":%u,\"iterations\":%d,\"firstMs\":%.3f,\"totalMs\":%.3f,\"checksum\":%lu}\n", first, iterations, t1 - t0, t2 - t1, checksum);
  return 0;
}
