// Reading and writing whole files (core/files.h) against what a hostile
// folder holds: planted symlinks and directories where the temporary used
// to go, FIFOs and devices as inputs, outputs that must land together.
#include "core/files.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace ftclos {
namespace {

namespace fs = std::filesystem;

class FilesTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) / fmt::format("files_test_{}", getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string text_of(const std::string& name) const {
    Result<std::string> text = read_file(path(name));
    EXPECT_TRUE(text.ok()) << text.status().message();
    return text.ok() ? *text : "";
  }
  int entries() const { return static_cast<int>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }

  fs::path dir_;
};

// The old writer opened OUT.tmp with fopen("wb"): a symlink planted there
// made it overwrite the link's target, and OUT became that link.
TEST_F(FilesTest, PlantedTmpSymlinkIsNeitherFollowedNorReplaced) {
  ASSERT_TRUE(write_file(path("victim"), "precious\n").ok());
  fs::create_symlink(path("victim"), path("out.tmp"));
  ASSERT_TRUE(write_file(path("out"), "routes\n").ok());
  EXPECT_EQ(text_of("victim"), "precious\n");
  EXPECT_FALSE(fs::is_symlink(path("out")));
  EXPECT_EQ(text_of("out"), "routes\n");
  EXPECT_TRUE(fs::is_symlink(path("out.tmp")));
  EXPECT_EQ(entries(), 3);  // no temporary left
}

// The old writer removed a directory named OUT.tmp after failing on it.
TEST_F(FilesTest, ExistingTmpDirectoryIsLeftAlone) {
  fs::create_directories(path("out.tmp/inside"));
  ASSERT_TRUE(write_file(path("out"), "routes\n").ok());
  EXPECT_TRUE(fs::is_directory(path("out.tmp/inside")));
  EXPECT_EQ(text_of("out"), "routes\n");
}

TEST_F(FilesTest, ReplacedFileKeepsItsModeAndNewOnesFollowTheUmask) {
  ASSERT_TRUE(write_file(path("kept"), "old\n").ok());
  ::chmod(path("kept").c_str(), 0640);
  ASSERT_TRUE(write_file(path("kept"), "new\n").ok());
  EXPECT_EQ(fs::status(path("kept")).permissions() & fs::perms::mask, fs::perms(0640));
  const mode_t mask = ::umask(022);
  ASSERT_TRUE(write_file(path("fresh"), "new\n").ok());
  ::umask(077);
  ASSERT_TRUE(write_file(path("private"), "new\n").ok());
  ::umask(mask);
  EXPECT_EQ(fs::status(path("fresh")).permissions() & fs::perms::mask, fs::perms(0644));
  EXPECT_EQ(fs::status(path("private")).permissions() & fs::perms::mask, fs::perms(0600));
}

// `route -o D --pathbits /dev/full` replaced D, then failed.
TEST_F(FilesTest, OutputsAreReplacedTogetherOrNotAtAll) {
  ASSERT_TRUE(write_file(path("dump"), "old tables\n").ok());
  {
    OutputFiles outputs;
    ASSERT_TRUE(outputs.write(path("dump"), [](const TextSink& sink) { return sink("new tables\n"); }).ok());
    const Status full = outputs.write("/dev/full", [](const TextSink& sink) { return sink(std::string(1 << 16, 'b')); });
    ASSERT_FALSE(full.ok());
    EXPECT_NE(full.message().find("cannot write /dev/full: No space left on device"), std::string::npos)
        << full.message();
  }  // not committed
  EXPECT_EQ(text_of("dump"), "old tables\n");
  EXPECT_EQ(entries(), 1);
  OutputFiles outputs;
  ASSERT_TRUE(outputs.write(path("dump"), [](const TextSink& sink) { return sink("new tables\n"); }).ok());
  ASSERT_TRUE(outputs.write(path("bits"), [](const TextSink& sink) { return sink("bits\n"); }).ok());
  EXPECT_EQ(text_of("dump"), "old tables\n");  // nothing in place before commit
  ASSERT_TRUE(outputs.commit().ok());
  EXPECT_EQ(text_of("dump"), "new tables\n");
  EXPECT_EQ(text_of("bits"), "bits\n");
  EXPECT_EQ(entries(), 2);
}

// Two writers to one file leave one whole output (the old shared OUT.tmp
// gave a file equal to neither).
TEST_F(FilesTest, ConcurrentWritersLeaveOneWholeOutput) {
  std::string a, b;
  for (int line = 0; line < 100000; ++line) a += "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", b += "bbbbbbbbbbbbbbbbbbbb\n";
  for (int round = 0; round < 5; ++round) {
    std::thread first([&] { EXPECT_TRUE(write_file(path("out"), a).ok()); });
    std::thread second([&] { EXPECT_TRUE(write_file(path("out"), b).ok()); });
    first.join();
    second.join();
    const std::string result = text_of("out");
    EXPECT_TRUE(result == a || result == b) << result.size() << " bytes";
  }
  EXPECT_EQ(entries(), 1);
}

// The plugin's sweep report (engine/sweep_reporter.h) is polled by
// node_exporter during sweeps: a reader must see the old file or the new,
// whole, never one truncated in place and refilled. A reader holding the
// old file keeps it whole too (a new inode replaced it).
TEST_F(FilesTest, DurableWritesNeverShowAReaderHalfAFile) {
  std::string a, b;
  for (int line = 0; line < 20000; ++line) a += "ftclos_a 1\n", b += "ftclos_bb 2\n";
  ASSERT_TRUE(write_file_durably(path("ftclos.prom"), a).ok());
  std::FILE* held = std::fopen(path("ftclos.prom").c_str(), "rb");
  ASSERT_NE(held, nullptr);
  std::atomic<bool> done = false;
  int reads = 0, partial = 0;
  std::thread reader([&] {
    while (!done) {
      Result<std::string> text = read_file(path("ftclos.prom"));
      ++reads;
      partial += !text.ok() || (*text != a && *text != b);
    }
  });
  for (int round = 0; round < 20; ++round)
    ASSERT_TRUE(write_file_durably(path("ftclos.prom"), round % 2 ? a : b).ok());
  done = true;
  reader.join();
  EXPECT_GT(reads, 0);
  EXPECT_EQ(partial, 0);
  std::string old(a.size() + 1, '\0');
  EXPECT_EQ(std::fread(old.data(), 1, old.size(), held), a.size());
  std::fclose(held);
  EXPECT_EQ(old.substr(0, a.size()), a);
  EXPECT_EQ(text_of("ftclos.prom"), a);
  EXPECT_EQ(entries(), 1);  // no temporary left
}

TEST_F(FilesTest, FifoAndDevicesAreRefusedAtOnce) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  Result<std::string> fifo = read_file(path("fifo"));  // the old code waited for a writer forever
  ASSERT_FALSE(fifo.ok());
  EXPECT_EQ(fifo.status().message(), path("fifo") + ": not a regular file (a FIFO); expected a file");
  Result<std::string> zero = read_file("/dev/zero");  // the old code grew to GBs and aborted
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().message(), "/dev/zero: not a regular file (a character device); expected a file");
  EXPECT_FALSE(read_file(dir_.string()).ok());
  EXPECT_FALSE(MappedFile::open(path("fifo")).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST_F(FilesTest, OverlongLinesAndOversizedFilesAreRefused) {
  ASSERT_TRUE(write_file(path("long"), "short\n" + std::string(kMaxLineBytes + 1, 'x') + "\n").ok());
  Result<std::string> long_line = read_file(path("long"));
  ASSERT_FALSE(long_line.ok());
  EXPECT_EQ(long_line.status().message(),
            path("long") + ":2: a line of more than 64 KiB; no line of this format is that long");
  ASSERT_TRUE(write_file(path("exact"), std::string(kMaxLineBytes, 'x')).ok());
  EXPECT_TRUE(read_file(path("exact")).ok());
  ASSERT_TRUE(write_file(path("big"), std::string(3 << 20, '\n')).ok());
  Result<std::string> big = read_file(path("big"), 2 << 20);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().message(), path("big") + ": more than 2 MiB; no file of this format is that large");
}

TEST(Excerpt, KeepsShortTextAndCutsLongText) {
  EXPECT_EQ(excerpt("hello"), "hello");
  EXPECT_EQ(excerpt(std::string(1000, 'z')), std::string(200, 'z') + "... (800 more bytes)");
}

}  // namespace
}  // namespace ftclos
