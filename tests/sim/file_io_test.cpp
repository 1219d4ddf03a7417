// Files the user names: only regular files are read, up to a limit, and a failed write is an error.
#include "gemmlab/file_io.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace gemmlab {
namespace {

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmlab-file-io-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

void expect_error(const Result<std::string>& r, std::string_view says) {
  ASSERT_FALSE(r.ok()) << "expected an error saying: " << says;
  EXPECT_NE(r.error().message.find(says), std::string::npos) << r.error().message;
}

TEST(FileIo, ReadsARegularFileThroughALink) {
  const auto dir = temp_dir();
  { std::ofstream(dir / "a.json") << "{}"; }
  std::filesystem::remove(dir / "link.json");
  std::filesystem::create_symlink(dir / "a.json", dir / "link.json");
  const auto text = read_input_file((dir / "link.json").string(), "profile");
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "{}");
}

TEST(FileIo, AFifoIsRefusedWithoutWaitingForAWriter) {
  const auto fifo = temp_dir() / "fifo.json";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_error(read_input_file(fifo.string(), "device profile"), "is not a regular file");
}

TEST(FileIo, ALinkToADeviceIsRefused) {
  const auto link = temp_dir() / "zero.json";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);  // endless: reading it would grow without bound
  expect_error(read_input_file(link.string(), "device profile"), "device profile '" + link.string() + "' is not a regular file");
}

TEST(FileIo, FilesAboveTheLimitAreRefused) {
  const auto path = temp_dir() / "big.json";
  { std::ofstream(path) << std::string(2048, ' '); }
  expect_error(read_input_file(path.string(), "results file", 1024), "is larger than 1 KiB");
  EXPECT_TRUE(read_input_file(path.string(), "results file", 2048).ok());
}

TEST(FileIo, MissingFilesAndFoldersAreNamed) {
  expect_error(read_input_file((temp_dir() / "missing.json").string(), "device profile"), "it does not exist");
  expect_error(read_input_file(temp_dir().string(), "device profile"), "is a directory");
}

TEST(FileIo, AFullDiskIsAnErrorNotSuccess) {
  const auto full = write_output_file("/dev/full", "some bytes", "screenshot");
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.error().message.find("could not write the screenshot '/dev/full'"), std::string::npos)
      << full.error().message;
  const auto path = temp_dir() / "out.txt";
  ASSERT_TRUE(write_output_file(path.string(), "text", "report").ok());
  EXPECT_EQ(*read_input_file(path.string(), "report"), "text");
}

}  // namespace
}  // namespace gemmlab
