/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef DRIVERS_GPIO_SIFIVE_GPIO_H
#define DRIVERS_GPIO_SIFIVE_GPIO_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt/fdt.h"

/* An output line of a GPIO controller; drive() sets its level. */
struct gpio_line {
	uintptr_t base;
	uint32_t pin;
	bool active_low;
	void (*drive)(const struct gpio_line *line, bool high);
};

/* The line `pin` of a "sifive,gpio0" node. */
int sifive_gpio_line(const struct fdt *fdt, int controller, uint32_t pin,
		     struct gpio_line *line);

#endif
