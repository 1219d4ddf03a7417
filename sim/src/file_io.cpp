#include "gemmlab/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gemmlab {
namespace {

// Closes the descriptor on every way out that has not closed it (and checked the close) already.
struct Descriptor {
  int fd;
  explicit Descriptor(int descriptor) : fd(descriptor) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<std::string> read_input_file(const std::string& path, std::string_view what, std::size_t max_bytes) {
  const std::string named = std::string(what) + " '" + path + "'";
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat below then refuses it.
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    const int error = errno;
    if (error == ENOENT) return Error{"cannot open " + named + ": it does not exist; check the path"};
    return Error{"cannot open " + named + ": " + std::strerror(error)};
  }
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) return Error{"cannot read " + named + ": " + std::strerror(errno)};
  if (S_ISDIR(info.st_mode)) return Error{named + " is a directory; give the path of a file"};
  if (!S_ISREG(info.st_mode))
    return Error{named + " is not a regular file (a pipe, device or socket); give the path of a file"};
  const auto too_big = [&] {
    return Error{named + " is larger than " + std::to_string(max_bytes >> 10) + " KiB, more than any " +
                 std::string(what) + " needs; give the path of the right file"};
  };
  if (static_cast<std::size_t>(info.st_size) > max_bytes) return too_big();
  std::string text;
  char buffer[1 << 16];
  for (;;) {  // read to the end, not to the size fstat saw: the file may have changed since
    const ssize_t got = ::read(file.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Error{"cannot read " + named + ": " + std::strerror(errno)};
    if (got == 0) break;
    if (text.size() + static_cast<std::size_t>(got) > max_bytes) return too_big();
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

Status write_output_file(const std::string& path, std::string_view content, std::string_view what) {
  const std::string named = std::string(what) + " '" + path + "'";
  Descriptor file{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)};
  if (file.fd < 0) return Error{"cannot write the " + named + ": " + std::strerror(errno)};
  while (!content.empty()) {
    const ssize_t put = ::write(file.fd, content.data(), content.size());
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return Error{"could not write the " + named + ": " + std::strerror(put < 0 ? errno : ENOSPC)};
    content.remove_prefix(static_cast<std::size_t>(put));
  }
  const int fd = file.fd;
  file.fd = -1;
  if (::close(fd) != 0) return Error{"could not write the " + named + ": " + std::strerror(errno)};
  return Ok{};
}

}  // namespace gemmlab
