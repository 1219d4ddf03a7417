// png_check FILE: fails unless FILE is a PNG whose pixels show something drawn, not one flat colour.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdint>
#include <cstdio>
#include <map>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: png_check FILE.png\n");
    return 2;
  }
  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &width, &height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "png_check: cannot read %s: %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  std::map<std::uint32_t, long> histogram;
  const long count = static_cast<long>(width) * height;
  for (long i = 0; i < count; ++i) {
    const unsigned char* p = pixels + i * 3;
    ++histogram[(std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2]];
  }
  stbi_image_free(pixels);
  long background = 0;
  for (const auto& [colour, n] : histogram) background = n > background ? n : background;
  const double drawn = 1.0 - static_cast<double>(background) / static_cast<double>(count);
  std::printf("%s: %dx%d, %zu colours, %.1f%% of pixels differ from the background\n", argv[1], width, height,
              histogram.size(), 100.0 * drawn);
  // Text and table rules on a flat background: several colours, and at least 1% of the pixels drawn on.
  if (histogram.size() < 3 || drawn < 0.01) {
    std::fprintf(stderr, "png_check: the picture looks blank\n");
    return 1;
  }
  return 0;
}
