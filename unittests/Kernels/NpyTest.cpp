//===- NpyTest.cpp - .npy reading and writing -----------------------------===//

#include "KernelTestUtils.h"

#include "distir/Kernels/Npy.h"

#include <cstdio>
#include <fstream>

using namespace distir;
using namespace distir::testing;

namespace {

/// A .npy file as NumPy writes it: magic, version, little-endian header
/// length, the dict padded with spaces and '\n', then the data.
std::string makeNpy(int major, const std::string &dict,
                    const std::string &data) {
  std::string header = dict;
  size_t prefix = 6 + 2 + (major == 1 ? 2 : 4);
  while ((prefix + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string bytes = std::string("\x93NUMPY", 6);
  bytes += static_cast<char>(major);
  bytes += '\0';
  for (size_t i = 0; i < (major == 1 ? 2u : 4u); ++i)
    bytes += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return bytes + header + data;
}

std::string floatBytes(std::vector<float> values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(float));
}

TEST(Npy, RoundTripsEveryType) {
  for (ElementType type :
       {ElementType::F64, ElementType::F32, ElementType::F16, ElementType::I64,
        ElementType::I32, ElementType::I1}) {
    HostTensor original = HostTensor::random("t", {2, 3, 4}, type, 5, 100);
    HostTensor parsed;
    ASSERT_OK(parseNpy(serializeNpy(original), parsed));
    EXPECT_TRUE(parsed.isBitwiseEqual(original)) << getElementTypeName(type);
  }
  for (std::vector<int64_t> shape : {std::vector<int64_t>{}, {7}, {0, 3}}) {
    HostTensor original = HostTensor::random("s", shape, ElementType::F32, 1);
    HostTensor parsed;
    ASSERT_OK(parseNpy(serializeNpy(original), parsed));
    EXPECT_TRUE(parsed.isBitwiseEqual(original)) << formatShape(shape);
  }
}

TEST(Npy, WritesNumpyCompatibleHeaders) {
  std::string bytes = serializeNpy(makeTensor({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(bytes.compare(0, 6, "\x93NUMPY"), 0);
  EXPECT_EQ(bytes[6], 1);
  EXPECT_NE(
      bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"),
      std::string::npos);
  EXPECT_EQ((bytes.size() - 24) % 64, 0u); // Data is 64-byte aligned.
  std::string vector = serializeNpy(makeTensor({3}, {1, 2, 3}));
  EXPECT_NE(vector.find("'shape': (3,), }"), std::string::npos);
  std::string scalar = serializeNpy(makeTensor({}, {1}));
  EXPECT_NE(scalar.find("'shape': (), }"), std::string::npos);
}

TEST(Npy, Bfloat16IsWrittenAsF32) {
  HostTensor bf = makeTensor({2}, {1.5, -0.1}, ElementType::BF16);
  HostTensor parsed;
  ASSERT_OK(parseNpy(serializeNpy(bf), parsed));
  EXPECT_EQ(parsed.getElementType(), ElementType::F32);
  EXPECT_EQ(valuesOf(parsed), valuesOf(bf));
}

TEST(Npy, ReadsVersions1To3) {
  std::string data = floatBytes({1.5f, -2.0f});
  for (int major : {1, 2, 3}) {
    HostTensor parsed;
    ASSERT_OK(parseNpy(
        makeNpy(major,
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                data),
        parsed));
    expectTensor(parsed, {2}, {1.5, -2.0}, 0);
  }
  // Key order and quoting are free; the trailing comma is optional.
  HostTensor parsed;
  ASSERT_OK(parseNpy(
      makeNpy(
          1,
          "{\"shape\": (1, 2), \"fortran_order\": False, \"descr\": \"<f4\"}",
          data),
      parsed));
  expectTensor(parsed, {1, 2}, {1.5, -2.0}, 0);
}

TEST(Npy, ReportsCorruptFiles) {
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  std::string good = makeNpy(1, dict, floatBytes({1, 2}));
  HostTensor t;
  EXPECT_ERROR(parseNpy(good.substr(0, good.size() - 3), t),
               "truncated .npy file");
  EXPECT_ERROR(parseNpy(good.substr(0, 20), t), "truncated .npy file");
  EXPECT_ERROR(parseNpy(good + "xx", t), "bytes after the data");
  EXPECT_ERROR(parseNpy("PK\x03\x04 not numpy at all", t), "bad magic");
  EXPECT_ERROR(parseNpy("", t), "bad magic");
  std::string badVersion = good;
  badVersion[6] = 9;
  EXPECT_ERROR(parseNpy(badVersion, t), "unsupported .npy format version 9");
  EXPECT_ERROR(
      parseNpy(
          makeNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }",
                  floatBytes({1, 2})),
          t),
      "Fortran-order");
  EXPECT_ERROR(
      parseNpy(
          makeNpy(1,
                  "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
                  floatBytes({1})),
          t),
      "unsupported .npy dtype '<u2'");
  EXPECT_ERROR(
      parseNpy(
          makeNpy(1,
                  "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                  floatBytes({1, 2})),
          t),
      "unsupported .npy dtype '>f4'");
  EXPECT_ERROR(parseNpy(makeNpy(1, "{'descr': '<f4', 'shape': (2,), }",
                                floatBytes({1, 2})),
                        t),
               "header lacks");
  EXPECT_ERROR(
      parseNpy(
          makeNpy(1,
                  "{'descr': '<f4', 'fortran_order': False, 'shape': (2,x), }",
                  floatBytes({1, 2})),
          t),
      "malformed .npy header");
  EXPECT_ERROR(parseNpy(makeNpy(1, "['descr']", ""), t), "expected '{'");
  // The tensor passed in is untouched on failure.
  HostTensor keep = makeTensor({1}, {42});
  EXPECT_FALSE(parseNpy("junk", keep).ok());
  EXPECT_EQ(keep.getAsDouble(0), 42);
}

TEST(Npy, FilesReportTheirPath) {
  std::string path = ::testing::TempDir() + "/distir_npy_test.npy";
  HostTensor original = HostTensor::random("f", {3, 2}, ElementType::F64, 2);
  ASSERT_OK(writeNpyFile(path, original));
  HostTensor read;
  ASSERT_OK(readNpyFile(path, read));
  EXPECT_TRUE(read.isBitwiseEqual(original));
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "garbage";
  EXPECT_ERROR(readNpyFile(path, read), path + ": not a .npy file");
  std::remove(path.c_str());
  EXPECT_ERROR(readNpyFile(path, read), path + ": cannot open file");
  EXPECT_ERROR(writeNpyFile("/nonexistent-dir/x.npy", original),
               "/nonexistent-dir/x.npy: cannot open file for writing");
}

} // namespace
