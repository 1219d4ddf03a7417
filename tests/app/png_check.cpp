// png_check FILE [--region X0 Y0 X1 Y1]: fails unless FILE is a PNG whose pixels show something drawn, not one flat
// colour. With --region (fractions of the width and height), only that part of the picture is judged: a panel's
// area, so a blank panel next to a busy sidebar still fails.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

int main(int argc, char** argv) {
  double region[4] = {0.0, 0.0, 1.0, 1.0};
  if (argc == 7 && std::strcmp(argv[2], "--region") == 0) {
    for (int i = 0; i < 4; ++i) region[i] = std::atof(argv[3 + i]);
  } else if (argc != 2) {
    std::fprintf(stderr, "usage: png_check FILE.png [--region X0 Y0 X1 Y1]\n");
    return 2;
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "png_check: cannot read %s: %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  const int x0 = static_cast<int>(region[0] * width), y0 = static_cast<int>(region[1] * height);
  const int x1 = static_cast<int>(region[2] * width), y1 = static_cast<int>(region[3] * height);
  std::map<std::uint32_t, long> histogram;
  long count = 0;
  for (int y = y0; y < y1 && y < height; ++y)
    for (int x = x0; x < x1 && x < width; ++x) {
      const unsigned char* p = pixels + (static_cast<long>(y) * width + x) * 3;
      ++histogram[(std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2]];
      ++count;
    }
  stbi_image_free(pixels);
  if (count == 0) {
    std::fprintf(stderr, "png_check: the region is empty\n");
    return 1;
  }
  long background = 0;
  for (const auto& [colour, n] : histogram) background = n > background ? n : background;
  const double drawn = 1.0 - static_cast<double>(background) / static_cast<double>(count);
  std::printf("%s: %dx%d, region %d,%d-%d,%d: %zu colours, %.1f%% of pixels differ from the background\n", argv[1],
              width, height, x0, y0, x1, y1, histogram.size(), 100.0 * drawn);
  // Text and table rules on a flat background: several colours, and at least 1% of the pixels drawn on.
  if (histogram.size() < 3 || drawn < 0.01) {
    std::fprintf(stderr, "png_check: the picture looks blank\n");
    return 1;
  }
  return 0;
}
