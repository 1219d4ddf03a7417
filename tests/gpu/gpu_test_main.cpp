// GPU tests' main: where no CUDA device is present, say so and exit with the code CTest reports as "skipped".
#include <gtest/gtest.h>

#include <iostream>

#include "gemmlab/gpu/device.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (!GTEST_FLAG_GET(list_tests)) {
    if (const auto devices = gemmlab::gpu::list_devices(); !devices) {
      std::cout << "skipped: " << devices.error().message << "\n";
      return GEMMLAB_SKIP_CODE;
    }
  }
  return RUN_ALL_TESTS();
}
