// The PTX requests for several programs per SM that blkc's ptxas step and
// the runtime drop where a kernel spills to honour them.
#include "blk/Support/OccupancyRequests.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

const char *kModule = R"(.version 8.7
.target sm_90a
.address_size 64
.extern .shared .align 1024 .b8 blk_shared[];

.visible .entry two(
	.param .u64 two_param_0
)
.maxntid 256, 1, 1
.minnctapersm 2
{
	ret;
}
.visible .entry producer(
	.param .u64 producer_param_0
)
.maxntid 384, 1, 1
.minnctapersm 1
{
	ret;
}
.visible .entry plain(
	.param .u64 plain_param_0
)
.maxntid 128, 1, 1
{
	ret;
}
.visible .entry three()
.maxntid 128, 1, 1
.minnctapersm 3
{
	ret;
}
)";

TEST(OccupancyRequests, FindsEachEntrysRequestOfTwoOrMore) {
  std::string ptx = kModule;
  std::vector<OccupancyRequest> found = occupancyRequests(ptx);
  ASSERT_EQ(found.size(), 2u); // producer asks for 1, plain for nothing
  EXPECT_EQ(found[0].entry, "two");
  EXPECT_EQ(found[0].programs, 2);
  EXPECT_EQ(ptx.substr(found[0].begin, found[0].end - found[0].begin), ".minnctapersm 2\n");
  EXPECT_EQ(found[1].entry, "three");
  EXPECT_EQ(found[1].programs, 3);
  EXPECT_EQ(ptx.substr(found[1].begin, found[1].end - found[1].begin), ".minnctapersm 3\n");
}

TEST(OccupancyRequests, DropsOnlyTheGivenRequests) {
  std::string ptx = kModule;
  std::vector<OccupancyRequest> found = occupancyRequests(ptx);
  std::string one = withoutRequests(ptx, {found[1]});
  EXPECT_EQ(one.find(".minnctapersm 3"), std::string::npos);
  EXPECT_NE(one.find(".minnctapersm 2\n{"), std::string::npos);
  EXPECT_NE(one.find(".entry three()\n.maxntid 128, 1, 1\n{"), std::string::npos); // three's body follows its maxntid
  std::string none = withoutRequests(ptx, found);
  EXPECT_TRUE(occupancyRequests(none).empty());
  EXPECT_NE(none.find(".minnctapersm 1"), std::string::npos); // the producer keeps its own
  EXPECT_EQ(none.size(), ptx.size() - 2 * std::string(".minnctapersm 2\n").size());
  EXPECT_EQ(withoutRequests(ptx, {}), ptx);
}

TEST(OccupancyRequests, IgnoresDirectivesOutsideAnEntrysHeader) {
  // A request after the body's brace belongs to no entry header; a module
  // without entries has none.
  std::string ptx = ".visible .entry k()\n.maxntid 256, 1, 1\n{\n// .minnctapersm 2\nret;\n}\n";
  EXPECT_TRUE(occupancyRequests(ptx).empty());
  EXPECT_TRUE(occupancyRequests(".version 8.7\n.target sm_90a\n").empty());
  EXPECT_TRUE(occupancyRequests(".visible .entry broken(").empty());
}

} // namespace
