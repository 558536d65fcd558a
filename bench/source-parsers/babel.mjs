// Discovery on @babel/parser's tree (errorRecovery on, the `typescript` plugin, plus `jsx` for .tsx/.jsx files,
// and legacy decorators), the way vscode-jest's discovery reads test files: the same rules as
// src/extension/discovery.ts (shared.mjs), walked over the syntax tree instead of tokens. A file the parser
// cannot recover from yields no tests, as a CodeLens provider that catches the error would show.
import { parse } from "@babel/parser";
import {
  decodeEscapes,
  importsTable,
  MODIFIERS,
  ourCallee,
  PARAMETERISED,
  PROPERTY_CALLEES,
  ROLES,
} from "./shared.mjs";

const SKIP = new Set([
  "loc",
  "start",
  "end",
  "extra",
  "leadingComments",
  "trailingComments",
  "innerComments",
  "range",
  "errors",
  "comments",
  "tokens",
]);

function children(node) {
  const out = [];
  for (const key of Object.keys(node)) {
    if (SKIP.has(key)) continue;
    const v = node[key];
    if (Array.isArray(v)) for (const c of v) c && typeof c.type === "string" && out.push(c);
    else if (v && typeof v.type === "string") out.push(v);
  }
  return out.sort((a, b) => a.start - b.start);
}

export function parseBabel(source, fileName) {
  const jsx = /\.[jt]sx$/i.test(fileName);
  return parse(source, {
    sourceType: "module",
    errorRecovery: true,
    allowReturnOutsideFunction: true,
    plugins: ["typescript", ...(jsx ? ["jsx"] : []), "decorators-legacy"],
  });
}

/** The tests in `source`, as discovery.ts reports them; [] when the parser gives up. */
export function discoverBabel(source, fileName) {
  let file;
  try {
    file = parseBabel(source, fileName);
  } catch {
    return { tests: [], threw: true };
  }
  const bindings = [];
  for (const s of file.program.body) {
    if (s.type === "ImportDeclaration" && s.importKind !== "type") {
      for (const sp of s.specifiers) {
        const imported =
          sp.type === "ImportNamespaceSpecifier"
            ? "*"
            : sp.type === "ImportDefaultSpecifier"
              ? "default"
              : (sp.imported.name ?? sp.imported.value);
        bindings.push({ local: sp.local.name, imported, specifier: s.source.value });
      }
    }
    if (s.type === "VariableDeclaration") {
      for (const d of s.declarations) {
        const init = d.init;
        if (
          init?.type !== "CallExpression" ||
          init.callee.type !== "Identifier" ||
          init.callee.name !== "require" ||
          init.arguments[0]?.type !== "StringLiteral"
        )
          continue;
        const specifier = init.arguments[0].value;
        if (d.id.type === "Identifier") bindings.push({ local: d.id.name, imported: "*", specifier });
        else if (d.id.type === "ObjectPattern")
          for (const p of d.id.properties)
            if (p.type === "ObjectProperty" && p.value.type === "Identifier")
              bindings.push({ local: p.value.name, imported: p.key.name ?? p.key.value, specifier });
      }
    }
  }
  const table = importsTable(bindings);
  const tests = [];

  /** The call of ours `node` is: its callee and where it starts. */
  const ours = (node) => {
    if (node.type !== "CallExpression" && node.type !== "OptionalCallExpression") return undefined;
    const c = node.callee;
    if (c.type === "Identifier") {
      const callee = ourCallee(table, c.name);
      return callee && { callee, offset: c.start };
    }
    if (
      (c.type === "MemberExpression" || c.type === "OptionalMemberExpression") &&
      !c.computed &&
      c.object.type === "Identifier"
    ) {
      const callee = ourCallee(table, c.object.name, c.property.name);
      return callee && { callee, offset: c.object.start };
    }
    return undefined;
  };

  /** `test(…)`, `it.only(…)`, `test.each(table)(…)`, `describe.each\`…\`(…)`: its role and kind, else undefined. */
  const role = (node) => {
    if (node.type !== "CallExpression" || node.arguments.length === 0) return undefined;
    let c = node.callee;
    let parameterised = false;
    if (c.type === "CallExpression") ((c = c.callee), (parameterised = true));
    else if (c.type === "TaggedTemplateExpression") ((c = c.tag), (parameterised = true));
    const modifiers = [];
    while (c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier") {
      modifiers.unshift(c.property.name);
      c = c.object;
    }
    if (c.type !== "Identifier" || !ROLES.has(c.name) || !modifiers.every((m) => MODIFIERS.has(m))) return undefined;
    if (parameterised !== (modifiers.length > 0 && PARAMETERISED.has(modifiers[modifiers.length - 1])))
      return undefined;
    if (c.name === "context" && node.arguments.length < 2) return undefined;
    return { role: ROLES.get(c.name), kind: c.name, start: c.start };
  };

  const nameOf = (arg) => {
    if (arg.type === "StringLiteral") return arg.value;
    if (arg.type === "TemplateLiteral")
      return arg.expressions.length === 0
        ? decodeEscapes(source.slice(arg.start + 1, arg.end - 1))
        : source.slice(arg.start + 1, arg.end - 1);
    return source.slice(arg.start, arg.end).trim();
  };

  /** `const name = property(…)` in the innermost block around the test that declares `name`. */
  const bound = (name, ancestors) => {
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const body =
        ancestors[i].type === "Program" || ancestors[i].type === "BlockStatement" ? ancestors[i].body : undefined;
      for (const s of body ?? []) {
        const decl = s.type === "ExportNamedDeclaration" ? s.declaration : s;
        if (decl?.type !== "VariableDeclaration") continue;
        for (const d of decl.declarations) {
          if (d.id.type !== "Identifier" || d.id.name !== name || !d.init) continue;
          const init = d.init.type === "AwaitExpression" ? d.init.argument : d.init;
          const call = ours(init);
          return call && (call.callee === "property" || call.callee === "machine") ? call : undefined;
        }
      }
    }
    return undefined;
  };

  const findProperty = (args, ancestors) => {
    for (const arg of args.slice(1)) {
      if (arg.type === "Identifier") {
        const b = bound(arg.name, ancestors);
        if (b) return b;
      }
      const stack = [arg];
      while (stack.length > 0) {
        const n = stack.shift();
        const call = ours(n);
        if (call && PROPERTY_CALLEES.has(call.callee)) return call;
        if (n !== arg && role(n)) continue; // a test nested in this one owns its property
        stack.unshift(...children(n));
      }
    }
    return undefined;
  };

  const walk = (node, ancestors, suites) => {
    const r = role(node);
    let inner = suites;
    if (r) {
      const name = nameOf(node.arguments[0]);
      if (r.role === "suite") inner = [...suites, name];
      else {
        let outer = node;
        let k = ancestors.length - 1;
        // `it(…).timeout(5)`: the statement goes on to the end of the chain.
        while (
          k >= 1 &&
          ancestors[k].type === "MemberExpression" &&
          ancestors[k].object === outer &&
          ancestors[k - 1].type === "CallExpression" &&
          ancestors[k - 1].callee === ancestors[k]
        ) {
          outer = ancestors[k - 1];
          k -= 2;
        }
        const statement =
          ancestors[k]?.type === "ExpressionStatement" && ancestors[k].expression === outer ? ancestors[k] : outer;
        const property = findProperty(node.arguments, ancestors);
        tests.push({
          path: [...suites, name],
          kind: r.kind,
          range: { start: r.start, end: node.end },
          insertAfter: { offset: statement.end },
          propertyCall: property,
          isProperty: property !== undefined,
        });
      }
    }
    const next = [...ancestors, node];
    for (const c of children(node)) walk(c, next, inner);
  };
  walk(file.program, [], []);
  return { tests: tests.sort((a, b) => a.range.start - b.range.start), threw: false };
}
