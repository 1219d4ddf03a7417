#pragma once
// One way of writing each quantity the panels show, with its unit: the same number reads the same everywhere.
#include <cstdint>
#include <string>

namespace gemmlab::desktop::ui {

// Shared memory, in bytes and binary units as the CUDA limits are quoted: "229408 bytes (224.0 KiB)", "512 bytes".
std::string shared_bytes_text(std::int64_t bytes);
// Traffic between DRAM and L2, in decimal units as bandwidth is quoted: "4.622 GB", "268.4 MB", "12.0 KB".
std::string dram_bytes_text(double bytes);

}  // namespace gemmlab::desktop::ui
