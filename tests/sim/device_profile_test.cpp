#include "gemmlab/sim/device_profile.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace gemmlab::sim {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string asset(std::string_view id) {
  return std::string(GEMMLAB_SOURCE_DIR) + "/assets/devices/" + std::string(id) + ".json";
}

// The H100 profile with one change applied, as JSON text.
template <class Edit>
std::string h100_with(Edit edit) {
  auto doc = nlohmann::json::parse(read_text(asset("h100-sxm")));
  edit(doc);
  return doc.dump();
}

void expect_error(const Result<DeviceProfile>& r, std::string_view says) {
  ASSERT_FALSE(r.ok()) << "expected an error saying: " << says;
  EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
}

TEST(DeviceProfile, EveryShippedProfileIsBuiltInAndMatchesItsFile) {
  ASSERT_EQ(builtin_device_ids().size(), 5u);
  EXPECT_EQ(builtin_device_ids().front(), "h100-sxm");
  for (const auto id : builtin_device_ids()) {
    const auto builtin = find_device(id);
    ASSERT_TRUE(builtin.ok()) << builtin.error().message;
    EXPECT_EQ(builtin->id, id) << "a profile's id is its file name";
    const auto from_file = load_device_profile_file(asset(id));
    ASSERT_TRUE(from_file.ok()) << from_file.error().message;
    EXPECT_EQ(from_file->l2_bytes, builtin->l2_bytes);
    EXPECT_EQ(from_file->sms, builtin->sms);
    EXPECT_EQ(from_file->fp32_tflops, builtin->fp32_tflops);
    EXPECT_FALSE(builtin->sources.empty());
  }
}

TEST(DeviceProfile, TheDefaultIsTheH100WeMeasureOn) {
  const auto h100 = find_device(kDefaultDevice);
  ASSERT_TRUE(h100.ok()) << h100.error().message;
  EXPECT_EQ(h100->id, "h100-sxm");
  // The figures of the H100 the results were measured on (its device query: sm_90, 132 SMs, 50 MiB of L2, ...).
  EXPECT_EQ(h100->sms, 132);
  EXPECT_EQ(h100->l2_bytes, 50 * 1024 * 1024);
  EXPECT_EQ(h100->smem_per_sm_bytes, 228 * 1024);
  EXPECT_EQ(h100->smem_per_block_optin_bytes, 227 * 1024);
  EXPECT_EQ(h100->registers_per_sm, 65536);
  EXPECT_EQ(h100->max_threads_per_sm, 2048);
  EXPECT_EQ(h100->max_blocks_per_sm, 32);
  EXPECT_EQ(h100->boost_clock_mhz, 1980);
  // validate()'s default limits are the H100's.
  const DeviceLimits defaults;
  EXPECT_EQ(device_limits(*h100).max_threads_per_block, defaults.max_threads_per_block);
  EXPECT_EQ(device_limits(*h100).max_smem_per_block_bytes, defaults.max_smem_per_block_bytes);
}

TEST(DeviceProfile, AliasesFindTheSameProfile) {
  for (const auto& [alias, id] : {std::pair{"h100", "h100-sxm"}, {"a100", "a100-sxm"}, {"4090", "rtx-4090"},
                                  {"1070", "gtx-1070"}}) {
    const auto d = find_device(alias);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->id, id);
  }
  const auto gtx = find_device("gtx-1070");
  ASSERT_TRUE(gtx.ok());
  EXPECT_EQ(device_limits(*gtx).max_smem_per_block_bytes, 48 * 1024) << "Pascal has no opt-in above 48 KiB";
}

// The commands that time on a GPU predict for its own profile by default (--profile auto): found by the name CUDA
// gives the GPU.
TEST(DeviceProfile, AGpusCudaNameFindsItsProfile) {
  for (const auto& [cuda_name, id] : {std::pair{"NVIDIA H100 80GB HBM3", "h100-sxm"}, {"NVIDIA H200", "h200-sxm"},
                                      {"NVIDIA GeForce RTX 4090", "rtx-4090"}}) {
    const auto d = find_device_for_gpu(cuda_name);
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_EQ(d->id, id);
  }
  const auto none = find_device_for_gpu("NVIDIA L40S");
  expect_error(none, "no shipped profile is of the NVIDIA L40S");
  EXPECT_NE(none.error().message.find("NVIDIA H200"), std::string::npos) << none.error().message;
}

TEST(DeviceProfile, UnknownNameListsTheKnownOnes) {
  const auto r = find_device("v100");
  expect_error(r, "unknown device 'v100'");
  for (const auto id : builtin_device_ids()) EXPECT_NE(r.error().message.find(std::string(id)), std::string::npos);
}

TEST(DeviceProfile, BadProfilesAreErrorsNamingTheField) {
  expect_error(parse_device_profile("{\"id\": ", "broken.json"), "broken.json': not valid JSON");
  expect_error(parse_device_profile("[1, 2]", "list.json"), "must be a JSON object");
  expect_error(parse_device_profile(h100_with([](auto& d) { d.erase("sms"); }), "x.json"), "field 'sms' is missing");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["sms"] = 0; }), "x.json"), "field 'sms' is 0");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["sms"] = 13.5; }), "x.json"),
               "field 'sms' must be a whole number");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["l2_bytes"] = "50 MB"; }), "x.json"),
               "field 'l2_bytes' must be a number");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["dram_bandwidth_gbs"] = -1; }), "x.json"),
               "field 'dram_bandwidth_gbs' is -1");
  expect_error(parse_device_profile(h100_with([](auto& d) { d.erase("name"); }), "x.json"), "field 'name' is missing");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["smem_per_sm"] = 1; }), "x.json"),
               "unknown field 'smem_per_sm'");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["tensor_tflops"].erase("bf16"); }), "x.json"),
               "field 'tensor_tflops.bf16' is missing");
  expect_error(parse_device_profile(h100_with([](auto& d) { d.erase("sources"); }), "x.json"),
               "field 'sources' is missing");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["sources"].erase("boost_clock_mhz"); }), "x.json"),
               "no entry in 'sources' for: boost_clock_mhz");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["sources"]["sm_count"] = "a book"; }), "x.json"),
               "names 'sm_count'");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["base_clock_mhz"] = 1500; }), "x.json"),
               "no entry in 'sources' for: base_clock_mhz");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["compute_capability"] = "abc"; }), "x.json"),
               "field 'compute_capability' is \"abc\"; write it as MAJOR.MINOR");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["compute_capability"] = "9"; }), "x.json"),
               "field 'compute_capability' is \"9\"");
  // Ranges in full, not "2.14748e+09".
  expect_error(parse_device_profile(h100_with([](auto& d) { d["registers_per_sm"] = 0; }), "x.json"),
               "field 'registers_per_sm' is 0; it must be in [1024, 2147483647]");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["fp32_tflops"] = 0; }), "x.json"),
               "it must be in [0.001, 1000000]");
}

TEST(DeviceProfile, InconsistentFiguresAreCaught) {
  expect_error(parse_device_profile(h100_with([](auto& d) { d["fp32_tflops"] = 670; }), "x.json"),
               "field 'fp32_tflops' (670) does not match");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["smem_per_block_optin_bytes"] = 300000; }), "x.json"),
               "'smem_per_block_optin_bytes' (300000) is larger than 'smem_per_sm_bytes'");
  expect_error(parse_device_profile(h100_with([](auto& d) { d["max_threads_per_sm"] = 1000; }), "x.json"),
               "multiples of the warp size");
  expect_error(parse_device_profile(h100_with([](auto& d) {
                                     d["base_clock_mhz"] = 2500;
                                     d["sources"]["base_clock_mhz"] = "a typo";
                                   }),
                                   "x.json"),
               "'base_clock_mhz' (2500) is above 'boost_clock_mhz'");
}

// The clock line of wgmma kernels comes whole, and falls as the tensor cores get busier.
TEST(DeviceProfile, TheWgmmaClockLineHasBothEndsAndFalls) {
  const auto line = [](double idle, double busy) {
    return h100_with([&](auto& d) {
      d["timing"]["wgmma_clock_mhz_pipe_idle"] = idle;
      d["timing"]["wgmma_clock_mhz_pipe_busy"] = busy;
    });
  };
  const auto ok = parse_device_profile(line(1857, 1572), "x.json");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->timing->wgmma_clock_mhz_pipe_busy, 1572);
  expect_error(parse_device_profile(h100_with([](auto& d) { d["timing"]["wgmma_clock_mhz_pipe_idle"] = 1857; }),
                                    "x.json"),
               "go together: give both ends of the clock's line or neither");
  expect_error(parse_device_profile(line(1572, 1857), "x.json"),
               "'timing.wgmma_clock_mhz_pipe_busy' (1857) must not exceed 'timing.wgmma_clock_mhz_pipe_idle' (1572)");
  expect_error(parse_device_profile(line(1857, -5), "x.json"), "field 'timing.wgmma_clock_mhz_pipe_busy' must be");
}

// The ring of TMA copies comes whole: its time alone means nothing without the queue it waits in with every SM copying.
TEST(DeviceProfile, TheTmaRingsTwoFiguresComeTogether) {
  const auto without = [](const char* field) {
    return h100_with([&](auto& d) { d["timing"].erase(field); });
  };
  for (const char* field : {"tma_ring_alone_seconds", "l2_tma_queue_bytes_per_second"})
    expect_error(parse_device_profile(without(field), "x.json"),
                 "'timing.tma_ring_alone_seconds' and 'timing.l2_tma_queue_bytes_per_second' go together");
  const auto neither = parse_device_profile(h100_with([](auto& d) {
                                              d["timing"].erase("tma_ring_alone_seconds");
                                              d["timing"].erase("l2_tma_queue_bytes_per_second");
                                            }),
                                            "x.json");
  ASSERT_TRUE(neither.ok()) << neither.error().message;
  EXPECT_EQ(neither->timing->tma_ring_alone_seconds, 0);
}

TEST(DeviceProfile, TheL2ModelsHoldTheProfilesShareOfTheL2) {
  const DeviceProfile h200 = *find_device("h200");
  EXPECT_EQ(h200.l2_bytes, std::int64_t{60} << 20);  // CUDA's l2CacheSize on the H200
  EXPECT_NEAR(double(l2_held_bytes(h200)), double(std::int64_t{40} << 20), double(std::int64_t{1} << 20));
  // Without a share, all of it; a share is at most the whole L2.
  const auto whole = parse_device_profile(h100_with([](auto& d) { d["timing"].erase("l2_held_share"); }), "x.json");
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(l2_held_bytes(*whole), whole->l2_bytes);
  expect_error(parse_device_profile(h100_with([](auto& d) { d["timing"]["l2_held_share"] = 1.5; }), "x.json"),
               "l2_held_share");
}

TEST(DeviceProfile, DeeplyNestedValuesAreASentenceNotACrash) {
  expect_error(parse_device_profile("{\"sms\": " + std::string(100000, '[') + std::string(100000, ']') + "}", "deep.json"),
               "device profile 'deep.json': lists and objects are nested more than 64 deep");
  // A bad value is quoted as a short excerpt, however large it is.
  const auto big = parse_device_profile(h100_with([](auto& d) { d["sms"] = std::vector<int>(100000, 1); }), "x.json");
  expect_error(big, "field 'sms' must be a number, not [1,1,1");
  EXPECT_LT(big.error().message.size(), 200u);
}

TEST(DeviceProfile, OnlyRegularFilesAreRead) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmlab_device_profile_special";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / "zero.json");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.json");
  expect_error(find_device((dir / "zero.json").string()), "is not a regular file");
  std::filesystem::remove_all(dir);
}

TEST(DeviceProfile, ProfilesLoadFromFiles) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmlab_device_profile_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / "small.json").string();
  {
    std::ofstream out(path);
    out << h100_with([](auto& d) {
      d["id"] = "small";
      d["sms"] = 2;
      d["fp32_tflops"] = 2 * 128 * 2 * 1.98e-3;
    });
  }
  const auto small = find_device(path);
  ASSERT_TRUE(small.ok()) << small.error().message;
  EXPECT_EQ(small->sms, 2);
  expect_error(find_device((dir / "missing.json").string()), "cannot open device profile");
  std::filesystem::create_directories(dir / "folder.json");
  expect_error(find_device((dir / "folder.json").string()), "is a directory");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gemmlab::sim
