; TypeScript and TSX definitions: @definition.KIND the node, @name its name (grammar.py).
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @declaration.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (identifier) @name) @definition.namespace
(internal_module name: (nested_identifier) @name) @definition.namespace
(class_body (method_definition name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @declaration.method)
(class_body (abstract_method_signature name: (_) @name) @declaration.method)
(interface_body (method_signature name: (_) @name) @declaration.method)
(public_field_definition name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
(variable_declarator name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
; An object bound to a name is a scope for the methods written in it (const provider = { now() {…} }).
(variable_declarator name: (identifier) @name value: (object)) @definition.object
(object (method_definition name: (_) @name) @definition.method)
