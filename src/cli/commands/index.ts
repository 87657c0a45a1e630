/**
 * The subcommands. Each module exports a `register(program)` that adds one
 * command and returns it; add a line here to add a command.
 */
import type { Command } from 'commander';

export type RegisterCommand = (program: Command) => Command;

export const SUBCOMMANDS: RegisterCommand[] = [];
