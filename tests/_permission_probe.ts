/**
 * Run under an entry's exact permission flags, tries one operation named on
 * the command line and prints `granted` or `refused` (Deno's NotCapable), so
 * tests can prove what each permission set allows and refuses.
 *
 * Usage: `_permission_probe.ts OPERATION TARGET`
 *
 * @module
 */

const [operation, target = ""] = Deno.args;

async function attempt(): Promise<void> {
  switch (operation) {
    case "read":
      await Deno.readFile(target);
      return;
    case "write":
      await Deno.writeTextFile(target, "probe");
      return;
    case "env":
      Deno.env.get(target);
      return;
    case "run":
      await new Deno.Command(target).output();
      return;
    case "tcp": {
      const [hostname, port] = target.split(":");
      (await Deno.connect({ hostname: hostname!, port: Number(port) })).close();
      return;
    }
    case "unix":
      (await Deno.connect({ transport: "unix", path: target })).close();
      return;
    case "listen":
      Deno.listen({ transport: "unix", path: target }).close();
      return;
    case "ffi":
      Deno.dlopen(target, {});
      return;
    default:
      throw new Error(`unknown operation ${operation}`);
  }
}

try {
  await attempt();
  console.log("granted");
} catch (error) {
  console.log(error instanceof Deno.errors.NotCapable ? "refused" : "granted");
}
