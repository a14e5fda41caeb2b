// The exit status the subcommand that ran leaves for main().
#include "commands.h"

namespace ftclos::cli {
namespace {
int g_exit_code = 0;
}  // namespace

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

}  // namespace ftclos::cli
