// png_check FILE [--region X0 Y0 X1 Y1]: fails unless FILE is a PNG whose pixels show something drawn, not one flat
// colour. With --region (fractions of the width and height), only that part of the picture is judged: a panel's
// area, so a blank panel next to a busy sidebar still fails.
// png_check FILE --same-as REFERENCE: fails unless FILE shows what REFERENCE shows: the same size, the top strip
// (the title and the panel tabs) nearly pixel for pixel, and the whole picture within a small average difference
// (a renderer or font version may move a few pixels; a new tab, panel content or layout moves many more).
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace {

// Mean absolute difference per channel (0-255) over rows [y0, y1), and the fraction of pixels that differ by more
// than 48 in some channel.
struct Difference {
  double mean = 0.0, changed = 0.0;
};
Difference difference(const unsigned char* a, const unsigned char* b, int width, int y0, int y1) {
  double sum = 0.0;
  long changed = 0, count = 0;
  for (long i = static_cast<long>(y0) * width; i < static_cast<long>(y1) * width; ++i, ++count) {
    int most = 0;
    for (int c = 0; c < 3; ++c) {
      const int d = std::abs(int{a[i * 3 + c]} - int{b[i * 3 + c]});
      sum += d;
      most = most > d ? most : d;
    }
    changed += most > 48 ? 1 : 0;
  }
  if (count == 0) return {};
  return {sum / (3.0 * static_cast<double>(count)), static_cast<double>(changed) / static_cast<double>(count)};
}

int same_as(const char* file, const char* reference) {
  int w = 0, h = 0, rw = 0, rh = 0, channels = 0;
  unsigned char* pixels = stbi_load(file, &w, &h, &channels, 3);
  unsigned char* expected = stbi_load(reference, &rw, &rh, &channels, 3);
  int status = 0;
  if (!pixels || !expected) {
    std::fprintf(stderr, "png_check: cannot read %s: %s\n", pixels ? reference : file, stbi_failure_reason());
    status = 1;
  } else if (w != rw || h != rh) {
    std::fprintf(stderr, "png_check: %s is %dx%d, %s is %dx%d\n", file, w, h, reference, rw, rh);
    status = 1;
  } else {
    const int strip = h / 12;  // the title bar and the panel tabs
    const Difference top = difference(pixels, expected, w, 0, strip), all = difference(pixels, expected, w, 0, h);
    std::printf("%s against %s: tabs strip %.2f%% of pixels changed, whole picture %.2f%% (mean difference %.2f)\n",
                file, reference, 100.0 * top.changed, 100.0 * all.changed, all.mean);
    if (top.changed > 0.002 || all.changed > 0.02) {
      std::fprintf(stderr, "png_check: %s no longer shows what %s shows\n", reference, file);
      status = 1;
    }
  }
  stbi_image_free(pixels);
  stbi_image_free(expected);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  double region[4] = {0.0, 0.0, 1.0, 1.0};
  if (argc == 4 && std::strcmp(argv[2], "--same-as") == 0) return same_as(argv[1], argv[3]);
  if (argc == 7 && std::strcmp(argv[2], "--region") == 0) {
    for (int i = 0; i < 4; ++i) region[i] = std::atof(argv[3 + i]);
  } else if (argc != 2) {
    std::fprintf(stderr, "usage: png_check FILE.png [--region X0 Y0 X1 Y1 | --same-as REFERENCE.png]\n");
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
