"""Read a KiCad netlist (the s-expression SKiDL writes) into plain data.

Standard library only: the PCB tools run under Debian's /usr/bin/python3
(for KiCad's pcbnew), which has no SKiDL.
"""
import re

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


class NetlistError(ValueError):
    """The file is not a KiCad netlist this reader understands."""


def parse_sexpr(text):
    """Nested lists of strings from an s-expression."""
    stack, top = [], []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if not m:
            raise NetlistError("unreadable s-expression at character %d" % pos)
        pos = m.end()
        if m.group(1):
            stack.append(top)
            top = []
        elif m.group(2):
            if not stack:
                raise NetlistError("unbalanced ')' at character %d" % pos)
            done, top = top, stack.pop()
            top.append(done)
        else:
            word = m.group(3)
            top.append(word.replace('\\"', '"') if word is not None else m.group(4))
    if stack:
        raise NetlistError("unbalanced '(' at the end")
    return top


def _child(node, key):
    for item in node[1:]:
        if isinstance(item, list) and item and item[0] == key:
            return item
    return None


def _value(node, key, default=""):
    item = _child(node, key)
    return item[1] if item and len(item) > 1 else default


class Part:
    __slots__ = ("ref", "value", "footprint", "fields", "description")

    def __init__(self, ref, value, footprint, fields, description):
        self.ref, self.value, self.footprint = ref, value, footprint
        self.fields, self.description = fields, description


class Netlist:
    """parts: {ref: Part}; nets: {name: [(ref, pin), ...]} in file order."""

    def __init__(self, parts, nets):
        self.parts, self.nets = parts, nets

    def pin_nets(self):
        """{(ref, pin): net name}."""
        return {node: name for name, nodes in self.nets.items() for node in nodes}


def read(path):
    with open(path) as f:
        text = f.read()
    tree = parse_sexpr(text)
    if not tree or not isinstance(tree[0], list) or tree[0][:1] != ["export"]:
        raise NetlistError("%s: not a KiCad netlist (no (export ...))" % path)
    root = tree[0]
    parts, nets = {}, {}
    for comp in (_child(root, "components") or [])[1:]:
        fields = {}
        for f in (_child(comp, "fields") or [])[1:]:
            if isinstance(f, list) and f[0] == "field" and len(f) > 2:
                fields[_value(f, "name")] = f[2]
        ref = _value(comp, "ref")
        if not ref:
            raise NetlistError("%s: a component has no reference" % path)
        parts[ref] = Part(ref, _value(comp, "value"), _value(comp, "footprint"), fields,
                          _value(comp, "description"))
    for net in (_child(root, "nets") or [])[1:]:
        name = _value(net, "name")
        nodes = [(_value(n, "ref"), _value(n, "pin")) for n in net[1:]
                 if isinstance(n, list) and n[0] == "node"]
        for ref, _pin in nodes:
            if ref not in parts:
                raise NetlistError("%s: net %s names an unknown part %s" % (path, name, ref))
        nets[name] = nodes
    return Netlist(parts, nets)
