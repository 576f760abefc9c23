// SPDX-License-Identifier: BSD-2-Clause
/*
 * SiFive GPIO controller ("sifive,gpio0", FU540-C000 manual, chapter GPIO):
 * one bit per pin in each 32-bit register.  The firmware only drives output
 * lines (gpio-restart): the pin is taken from its hardware I/O function,
 * its output value set, then its output driver enabled, so the line never
 * shows a level nobody asked for.
 */
#include <stdint.h>
#include "drivers/gpio/sifive_gpio.h"

#define SIFIVE_GPIO_INPUT_EN  0x04
#define SIFIVE_GPIO_OUTPUT_EN 0x08
#define SIFIVE_GPIO_OUTPUT_VAL 0x0c
#define SIFIVE_GPIO_IOF_EN    0x38
#define SIFIVE_GPIO_OUT_XOR   0x40
#define SIFIVE_GPIO_PINS      32

static volatile uint32_t *gpio_reg(const struct gpio_line *line, unsigned int offset)
{
	return (volatile uint32_t *)(line->base + offset);
}

static void reg_set_bit(volatile uint32_t *reg, uint32_t bit, bool on)
{
	*reg = on ? *reg | bit : *reg & ~bit;
}

static void sifive_gpio_drive(const struct gpio_line *line, bool high)
{
	uint32_t bit = 1u << line->pin;

	reg_set_bit(gpio_reg(line, SIFIVE_GPIO_IOF_EN), bit, false);
	reg_set_bit(gpio_reg(line, SIFIVE_GPIO_OUT_XOR), bit, false);
	reg_set_bit(gpio_reg(line, SIFIVE_GPIO_INPUT_EN), bit, false);
	reg_set_bit(gpio_reg(line, SIFIVE_GPIO_OUTPUT_VAL), bit, high);
	reg_set_bit(gpio_reg(line, SIFIVE_GPIO_OUTPUT_EN), bit, true);
}

int sifive_gpio_line(const struct fdt *fdt, int controller, uint32_t pin,
		     struct gpio_line *line)
{
	uint64_t base, size;

	if (!fdt_is_compatible(fdt, controller, "sifive,gpio0") || pin >= SIFIVE_GPIO_PINS ||
	    fdt_get_reg(fdt, controller, 0, &base, &size) < 0 || size < SIFIVE_GPIO_OUT_XOR + 4)
		return -1;
	line->base = (uintptr_t)base;
	line->pin = pin;
	line->drive = sifive_gpio_drive;
	return 0;
}
