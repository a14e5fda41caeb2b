// The subcommand table. Each entry's `add` registers one CLI11 subcommand
// whose callback does the work and records the exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace ftclos::cli {

struct Command {
  const char* name;
  void (*add)(CLI::App& app);
};

void add_gen(CLI::App& app);
void add_detect(CLI::App& app);
void add_route(CLI::App& app);
void add_schemes(CLI::App& app);
void add_pathbits(CLI::App& app);
void add_audit(CLI::App& app);
void add_patterns(CLI::App& app);
void add_simulate(CLI::App& app);
void add_plan(CLI::App& app);
void add_experiment(CLI::App& app);
void add_import_topo(CLI::App& app);
void add_trace(CLI::App& app);
void add_report(CLI::App& app);

inline constexpr Command kCommands[] = {
    {"gen", add_gen},
    {"detect", add_detect},
    {"route", add_route},
    {"schemes", add_schemes},
    {"pathbits", add_pathbits},
    {"audit", add_audit},
    {"trace", add_trace},
    {"patterns", add_patterns},
    {"simulate", add_simulate},
    {"plan", add_plan},
    {"experiment", add_experiment},
    {"import-topo", add_import_topo},
    {"report", add_report},
};

/// Exit status of the command that ran: 0 success, 1 failure, 2 bad input.
int exit_code();
void set_exit_code(int code);

}  // namespace ftclos::cli
